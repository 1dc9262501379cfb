import type { FastifyInstance } from "fastify";
import type { Db } from "#upstream/db";

declare module "fastify" {
  interface FastifyInstance {
    db: Db;
  }
}

/** Makes the database reachable from every route as `app.db`. The caller owns and closes it. */
export function dbPlugin(app: FastifyInstance, db: Db): void {
  app.decorate("db", db);
}
