import type { ResourceDefinition } from '../../schema/definition.js';
import { RESOURCE_HOOKS } from '../resources/index.js';
import { resourceController } from '../resources/resource-controller.js';
import { adminInfoController } from './admin/admin-info-controller.js';
import { indexController } from './admin/index-controller.js';
import { dashboardController } from './admin/dashboard-controller.js';
import { crudController } from './admin/crud-controller.js';
import { moduleController, moduleStoreApiController } from './admin/unavailable-tools.js';
import { adminAjaxController, memberAjaxController } from './ajax-controller.js';
import { accountController } from './api/account-controller.js';
import { commonController } from './api/common-controller.js';
import { memberIndexController } from './api/index-controller.js';
import { surveyController } from './api/survey-controller.js';
import { paymentUserController } from './api/payment-user-controller.js';
import { teamController } from './api/team-controller.js';
import { emsController } from './api/ems-controller.js';
import { smsController } from './api/sms-controller.js';
import { userController } from './api/user-controller.js';
import { ControllerRegistry } from './controller.js';

/** Every controller: one per schema with `x-controller`, plus the hand-written ones. */
export function createControllerRegistry(definitions: Iterable<ResourceDefinition>): ControllerRegistry {
  const registry = new ControllerRegistry();
  for (const definition of definitions) {
    if (definition.controller) registry.register(resourceController(definition, RESOURCE_HOOKS[definition.id]));
  }
  const handWritten = [
    indexController, dashboardController, adminInfoController, adminAjaxController,
    memberIndexController, userController, commonController, accountController, memberAjaxController, surveyController,
    emsController, smsController, paymentUserController, teamController, moduleController, moduleStoreApiController, crudController,
  ];
  for (const controller of handWritten) registry.register(controller);
  return registry;
}
