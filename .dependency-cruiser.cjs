// The layers, checked in `npm test` (npm run lint): what may import what. Type-only imports count
// too, except where a layer lists a folder under `types`.

// Each folder of a side may import its own modules and those it lists (named within its side but
// for contracts/ and common/; folders end in "/"), and nothing else of the repository; npm packages
// and Node's modules are free. docs/architecture.md's tables state the same lists, and
// tests/repo/docs.test.ts holds the two together. Tests beside the code (`*.test.ts`) may import
// what they exercise. The root modules of each side (root.tsx, entry.*.tsx, routes.ts; app.ts,
// server.ts, test-db.ts) and seed/ wire everything together.
const layers = {
  "app/routes/": { may: "server/ services/ components/ client/ lib/ root.tsx contracts/ common/" },
  "app/server/": { may: "services/ lib/ contracts/ common/" },
  "app/services/": { may: "lib/ contracts/ common/" },
  "app/components/": { may: "client/ lib/ root.tsx contracts/ common/", types: "server/" },
  "app/client/": { may: "softphone/ lib/ contracts/ common/" },
  "app/softphone/": { may: "" },
  "app/lib/": { may: "contracts/ common/" },
  "upstream/routes/": {
    may: "plugins/ cti/ chat/ monitor/ notifications/ observability/ repositories/ domain/ db/ http.ts settings.ts contracts/ common/",
  },
  "upstream/voice/": { may: "plugins/ domain/ http.ts settings.ts contracts/ common/", types: "cti/" },
  "upstream/plugins/": { may: "repositories/ domain/ db/ http.ts contracts/ common/" },
  "upstream/cluster/": { may: "cti/ chat/ monitor/ simulators/ seed/ db/ settings.ts contracts/ common/" },
  "upstream/cti/": { may: "notifications/ repositories/ domain/ db/ http.ts settings.ts contracts/ common/" },
  "upstream/chat/": { may: "notifications/ repositories/ domain/ db/ http.ts settings.ts contracts/ common/" },
  "upstream/monitor/": { may: "repositories/ domain/ db/ contracts/ common/" },
  "upstream/simulators/": { may: "repositories/ domain/ db/ http.ts settings.ts contracts/ common/" },
  "upstream/notifications/": { may: "observability/ repositories/ db/ http.ts contracts/ common/" },
  "upstream/observability/": { may: "domain/ db/ contracts/ common/" },
  "upstream/repositories/": { may: "domain/ db/ contracts/ common/" },
  "upstream/domain/": { may: "fixtures/ contracts/ common/", types: "db/" },
  "upstream/db/": { may: "contracts/ common/" },
};

const escape = (path) => path.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
const anchored = (path) => `^${escape(path)}${path.endsWith("/") ? "" : "$"}`;
const layerRules = Object.entries(layers).flatMap(([folder, { may, types = "" }]) => {
  const side = folder.slice(0, folder.indexOf("/") + 1);
  const paths = (names) =>
    names
      .split(" ")
      .filter(Boolean)
      .map((name) => (/^(contracts|common)\//.test(name) ? name : side + name));
  const from = { path: anchored(folder), pathNot: ["\\.test\\.tsx?$"] };
  return [
    {
      name: `layer ${folder}`,
      severity: "error",
      comment: `${folder} may import ${[may, types && `${types} (types only)`].filter(Boolean).join(", ") || "nothing of the repository"}.`,
      from,
      to: { path: "^(app|upstream|contracts|common|tests|bench)/", pathNot: [folder, ...paths(may), ...paths(types)].map(anchored) },
    },
    ...(types
      ? [
          {
            name: `layer ${folder} (types)`,
            severity: "error",
            from,
            to: { path: paths(types).map(anchored), dependencyTypesNot: ["type-only"] },
          },
        ]
      : []),
  ];
});

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    { name: "no-cycles", severity: "error", comment: "Modules import each other in one direction only.", from: {}, to: { circular: true } },
    {
      name: "console-never-imports-the-platform",
      severity: "error",
      comment: "The console talks to the platform over HTTP only (contracts/ is the seam).",
      from: { path: "^app/" },
      to: { path: "^upstream/" },
    },
    { name: "platform-never-imports-the-console", severity: "error", from: { path: "^upstream/" }, to: { path: "^app/" } },
    {
      name: "contracts-and-common-stand-alone",
      severity: "error",
      comment: "Both sides use them, so they use neither side.",
      from: { path: "^(contracts|common)/" },
      to: { path: "^(app|upstream|tests|bench)/" },
    },
    ...layerRules,
    {
      name: "routes-are-leaves",
      severity: "error",
      comment: "Nothing but the app and its tests imports a route module.",
      from: { path: "^(app|upstream)/", pathNot: ["^upstream/app\\.ts$", "\\.test\\.tsx?$", "^app/routes/"] },
      to: { path: "^(upstream/routes|app/routes)/" },
    },
    {
      name: "screens-stand-alone",
      severity: "error",
      comment: "A screen's folder imports no other screen's folder: what two screens share goes to components/, server/, client/ or lib/.",
      from: { path: "^app/routes/([^/]+)/" },
      to: { path: "^app/routes/", pathNot: "^app/routes/$1/" },
    },
    {
      name: "tests-and-bench-are-leaves",
      severity: "error",
      from: { path: "^(app|upstream|contracts|common)/", pathNot: ["\\.test\\.tsx?$", "^upstream/test-db\\.ts$"] },
      to: { path: "^(tests|bench)/" },
    },
  ],
  options: {
    doNotFollow: { path: "node_modules" },
    exclude: { path: "^(build|node_modules|data|\\.cache)/" },
    tsConfig: { fileName: "tsconfig.json" },
    tsPreCompilationDeps: true,
    enhancedResolveOptions: { extensions: [".ts", ".tsx", ".mjs", ".js", ".json"] },
  },
};
