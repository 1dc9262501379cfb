import { z } from "zod";
import { envelope } from "./envelope";

/** Brand variants (spec: default cloud platform, government centre, medical centre). */
export const BrandKeySchema = z.enum(["default", "gov", "medical"]);
export type BrandKey = z.infer<typeof BrandKeySchema>;

/** GET /config/logo?brand=... — public; the logo is an image data URI so the browser never calls the platform. */
export const LogoSchema = z.object({ brand: BrandKeySchema, logo: z.string() });
export const LogoResponseSchema = envelope(LogoSchema);

/** GET /config/agents/detail/{id} — spec §3 "Agent config"; workType 3 is a text agent. */
export const AgentConfigSchema = z.object({
  agentId: z.string(),
  workType: z.number().int(),
  defaultQueueName: z.string(),
  autoAnswer: z.boolean(),
});
export type AgentConfig = z.infer<typeof AgentConfigSchema>;
export const AgentConfigResponseSchema = envelope(AgentConfigSchema);

/** GET /config/api/customer — the caller's customer (tenant) profile. */
export const CustomerSchema = z.object({
  customerId: z.string(),
  tenantId: z.number().int(),
  tenantCode: z.string(),
  name: z.string(),
});
export const CustomerResponseSchema = envelope(CustomerSchema);

/** GET /config/tenants/{id}/callerIdNumbers: the numbers the tenant's outbound calls show. */
export const CallerIdNumberSchema = z.object({ id: z.number().int(), number: z.string() });
export const CallerIdNumbersResponseSchema = envelope(z.array(CallerIdNumberSchema));

/** GET /config/queues/list: the tenant's queues (every agent's queue) and how many agents each has. */
export const QueueSchema = z.object({ name: z.string(), agents: z.number().int().nonnegative() });
export const QueueListResponseSchema = envelope(z.object({ list: z.array(QueueSchema), total: z.number().int().nonnegative() }));
