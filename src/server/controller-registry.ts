import type { ResourceDefinition } from '../schema/definition.js';
import { RESOURCE_HOOKS } from './resources/index.js';
import { resourceController } from './resources/resource-controller.js';
import { labelReadingNodes } from './resources/reference-labels.js';
import { adminInfoController } from './controllers/admin/admin-info-controller.js';
import { jobsController } from './controllers/admin/jobs-controller.js';
import { indexController } from './controllers/admin/index-controller.js';
import { dashboardController } from './controllers/admin/dashboard-controller.js';
import { crudController } from './controllers/admin/crud-controller.js';
import { moduleController } from './controllers/admin/module-controller.js';
import { moduleStoreApiController } from './controllers/admin/unavailable-tools.js';
import { adminAjaxController, memberAjaxController } from './controllers/ajax-controller.js';
import { accountController } from './controllers/api/account-controller.js';
import { commonController } from './controllers/api/common-controller.js';
import { memberIndexController } from './controllers/api/index-controller.js';
import { surveyController } from './controllers/api/survey-controller.js';
import { paymentUserController } from './controllers/api/payment-user-controller.js';
import { teamController } from './controllers/api/team-controller.js';
import { emsController } from './controllers/api/ems-controller.js';
import { smsController } from './controllers/api/sms-controller.js';
import { userController } from './controllers/api/user-controller.js';
import { ControllerRegistry } from './http/controller.js';

/** Every controller: one per schema with `x-controller`, plus the hand-written ones. */
export function createControllerRegistry(definitions: Iterable<ResourceDefinition>): ControllerRegistry {
  const registry = new ControllerRegistry();
  const all = [...definitions];
  for (const definition of all) {
    if (definition.controller) registry.register(resourceController(definition, RESOURCE_HOOKS[definition.id], labelReadingNodes(all, definition)));
  }
  const handWritten = [
    indexController, dashboardController, adminInfoController, adminAjaxController,
    memberIndexController, userController, commonController, accountController, memberAjaxController, surveyController,
    emsController, smsController, paymentUserController, teamController, moduleController, moduleStoreApiController, crudController, jobsController,
  ];
  for (const controller of handWritten) registry.register(controller);
  return registry;
}
