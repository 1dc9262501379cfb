// The layers, checked in `npm test` (npm run lint): what may import what. docs/architecture.md
// draws them. Type-only imports count too, except where a rule says otherwise.
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
    {
      name: "shared-helpers-stay-pure",
      severity: "error",
      comment: "app/lib runs on both sides: no server, service or browser-only module.",
      from: { path: "^app/lib/" },
      to: { path: "^app/(server|services|client|routes)/" },
    },
    {
      name: "browser-code-never-reaches-the-server",
      severity: "error",
      from: { path: "^app/(client|components)/" },
      to: { path: "^app/(server|services|routes)/", dependencyTypesNot: ["type-only"] },
    },
    {
      name: "services-only-reach-the-transport",
      severity: "error",
      comment: "Upstream service modules know the transport and the contracts, not routes or UI.",
      from: { path: "^app/services/" },
      to: { path: "^app/(routes|components|client)/" },
    },
    {
      name: "platform-domain-is-pure",
      severity: "error",
      comment: "Domain rules know no database access, route, service or simulator.",
      from: { path: "^upstream/domain/" },
      to: { path: "^upstream/(repositories|routes|simulators|cti|chat|events|plugins)/" },
    },
    {
      name: "repositories-below-services",
      severity: "error",
      comment: "Repositories are data access: they never call routes, services or simulators.",
      from: { path: "^upstream/repositories/" },
      to: { path: "^upstream/(routes|simulators|cti|chat|plugins|seed)/" },
    },
    {
      name: "routes-are-leaves",
      severity: "error",
      comment: "Nothing but the app and its tests imports a route module.",
      from: { path: "^(app|upstream)/", pathNot: ["^upstream/app\\.ts$", "\\.test\\.tsx?$", "^app/routes/"] },
      to: { path: "^(upstream/routes|app/routes)/" },
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
