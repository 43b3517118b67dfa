/** The build stamp (`build-stamp.js`): what a build was made from, and whether it still matches. */
export declare const BUILD_INFO: string;
export declare const BUILD_LAYOUT: number;
export declare function sourceHash(root: string): string;
export declare function buildState(root: string): 'missing' | 'other-layout' | 'stale' | 'current';
