/**
 * The platform's own screens that no schema declares, under their menu directory: each start puts back the
 * menu and the buttons (the nodes its actions check) that are missing, so every checked node has a rule
 * (`ensurePlatformMenus` in `seed.ts`). `npm run gen` counts their nodes among the declared ones
 * (`src/generated/permission-nodes.ts`).
 */
export const PLATFORM_MENUS: readonly { name: string; parent: string; title: string; icon: string; weigh: number; buttons: readonly string[] }[] = [
  { name: 'routine/jobs', parent: 'routine', title: '后台任务', icon: 'fa fa-clock-o', weigh: 70, buttons: ['index', 'run'] },
];
