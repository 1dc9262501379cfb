// Remix's own options, handed to the Remix Vite plugin by vite.config.ts (design.md §2).
// Every v3 future flag is on, so the upgrade to React Router 7 is a rename, not a rewrite.
export const remixOptions = {
  appDirectory: "app",
  buildDirectory: "build/console",
  serverModuleFormat: "esm" as const,
  future: {
    v3_fetcherPersist: true,
    v3_relativeSplatPath: true,
    v3_throwAbortReason: true,
    v3_singleFetch: true,
    v3_lazyRouteDiscovery: true,
    v3_routeConfig: true,
  },
};
