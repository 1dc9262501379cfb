/**
 * Something the platform refuses to do (a rule, another tenant's id, a name taken), with the HTTP
 * status and the Chinese message the caller is told. Repositories and domain rules throw it, or a
 * subclass that names what refused; the error plugin (plugins/errors.ts) answers every one, so a
 * route has no mapping of its own.
 */
export class Refused extends Error {
  constructor(
    readonly status: 400 | 403 | 404 | 409,
    message: string,
  ) {
    super(message);
  }
}
