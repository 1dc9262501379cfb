import { sql } from "kysely";
import {
  BUILT_IN_COLUMNS,
  checkValue,
  type ContactGroup,
  type ContactListQuery,
  type CustomerContact,
  type CustomerProperty,
  type CustomerPropertyInput,
  type PropertyValue,
} from "#contracts/customers";
import type { Db, Trx } from "#upstream/db";
import { keysetPage } from "./keyset";
import { likePattern } from "./knowledge";
import { Refused } from "#upstream/domain/refused";

/**
 * A tenant's customers (decision 020): custom properties, contacts with their values (keyed by
 * property id) and groups. Their imports are in customer-imports.ts. Every read and write is scoped by the
 * tenant; another tenant's id is not found.
 */

export class CustomerRefused extends Refused {}

const isUniqueViolation = (error: unknown) => (error as { code?: string } | null)?.code === "23505";

// ---- properties ----

type PropertyRow = {
  id: number;
  name: string;
  type: string;
  options: string[];
  required: boolean;
  is_unique: boolean;
  valid: boolean;
  position: number;
};
const propertyColumns = ["id", "name", "type", "options", "required", "is_unique", "valid", "position"] as const;
const toProperty = (r: PropertyRow): CustomerProperty => ({
  id: r.id,
  name: r.name,
  type: r.type as CustomerProperty["type"],
  options: r.options,
  required: r.required,
  unique: r.is_unique,
  valid: r.valid,
  position: r.position,
});

/** The tenant's properties in their order; `validOnly` gives those the forms and lists use. */
export async function listProperties(db: Trx, tenantId: number, validOnly = false): Promise<CustomerProperty[]> {
  let query = db.selectFrom("customer_properties").select(propertyColumns).where("tenant_id", "=", tenantId);
  if (validOnly) query = query.where("valid", "=", true);
  return (await query.orderBy("position").orderBy("id").execute()).map(toProperty);
}

export async function findProperty(db: Trx, tenantId: number, id: number): Promise<CustomerProperty | undefined> {
  const row = await db
    .selectFrom("customer_properties")
    .select(propertyColumns)
    .where("tenant_id", "=", tenantId)
    .where("id", "=", id)
    .executeTakeFirst();
  return row && toProperty(row);
}

async function requireProperty(db: Trx, tenantId: number, id: number) {
  const property = await findProperty(db, tenantId, id);
  if (!property) throw new CustomerRefused(404, "客户属性不存在");
  return property;
}

/** Whether two contacts share a value of the property (a unique flag cannot be set then). */
async function hasDuplicateValues(db: Trx, tenantId: number, id: number) {
  const key = String(id);
  const row = await db
    .selectFrom("crm_contacts")
    .select(sql<string>`properties->>${key}`.as("v"))
    .where("tenant_id", "=", tenantId)
    .where(sql<boolean>`properties ? ${key}`)
    .groupBy(sql`properties->>${key}`)
    .having(sql<boolean>`count(*) > 1`)
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
}

export async function createProperty(trx: Trx, tenantId: number, input: CustomerPropertyInput): Promise<CustomerProperty> {
  const last = await trx
    .selectFrom("customer_properties")
    .select(sql<number>`coalesce(max(position), 0)`.as("p"))
    .where("tenant_id", "=", tenantId)
    .executeTakeFirstOrThrow();
  try {
    const row = await trx
      .insertInto("customer_properties")
      .values({
        tenant_id: tenantId,
        name: input.name,
        type: input.type,
        options: input.options,
        required: input.required,
        is_unique: input.unique,
        position: Number(last.p) + 1,
      })
      .returning(propertyColumns)
      .executeTakeFirstOrThrow();
    return toProperty(row);
  } catch (error) {
    if (isUniqueViolation(error)) throw new CustomerRefused(400, "属性名称已存在");
    throw error;
  }
}

export async function updateProperty(trx: Trx, tenantId: number, id: number, input: CustomerPropertyInput) {
  const before = await requireProperty(trx, tenantId, id);
  const key = String(id);
  if (before.type !== input.type) {
    const used = await trx
      .selectFrom("crm_contacts")
      .select("id")
      .where("tenant_id", "=", tenantId)
      .where(sql<boolean>`properties ? ${key}`)
      .limit(1)
      .executeTakeFirst();
    if (used) throw new CustomerRefused(400, `已有联系人填写了「${before.name}」，不能修改类型`);
  }
  if (input.unique && !before.unique && (await hasDuplicateValues(trx, tenantId, id)))
    throw new CustomerRefused(400, `「${before.name}」已有重复的值，不能设为唯一`);
  try {
    const row = await trx
      .updateTable("customer_properties")
      .set({ name: input.name, type: input.type, options: input.options, required: input.required, is_unique: input.unique })
      .where("tenant_id", "=", tenantId)
      .where("id", "=", id)
      .returning(propertyColumns)
      .executeTakeFirstOrThrow();
    return { before, after: toProperty(row) };
  } catch (error) {
    if (isUniqueViolation(error)) throw new CustomerRefused(400, "属性名称已存在");
    throw error;
  }
}

/** Deletes a property and its values on every contact. */
export async function deleteProperty(trx: Trx, tenantId: number, id: number) {
  const property = await requireProperty(trx, tenantId, id);
  const key = String(id);
  await sql`UPDATE crm_contacts SET properties = properties - ${key}
            WHERE tenant_id = ${tenantId} AND properties ? ${key}`.execute(trx);
  await trx.deleteFrom("customer_properties").where("tenant_id", "=", tenantId).where("id", "=", id).execute();
  return property;
}

export async function setPropertyValid(trx: Trx, tenantId: number, id: number, valid: boolean) {
  await requireProperty(trx, tenantId, id);
  const row = await trx
    .updateTable("customer_properties")
    .set({ valid })
    .where("tenant_id", "=", tenantId)
    .where("id", "=", id)
    .returning(propertyColumns)
    .executeTakeFirstOrThrow();
  return toProperty(row);
}

/** Moves a property one place up or down (swapping with its neighbour); at an end it stays. */
export async function reorderProperty(trx: Trx, tenantId: number, id: number, action: "up" | "down") {
  const list = await listProperties(trx, tenantId);
  const at = list.findIndex((p) => p.id === id);
  if (at < 0) throw new CustomerRefused(404, "客户属性不存在");
  const other = list[action === "up" ? at - 1 : at + 1];
  if (!other) throw new CustomerRefused(400, action === "up" ? "已经是第一个" : "已经是最后一个");
  // Positions are renumbered in list order first, so equal positions cannot make a swap a no-op.
  const order = list.map((p) => p.id);
  order[at] = other.id;
  order[action === "up" ? at - 1 : at + 1] = id;
  for (const [index, pid] of order.entries())
    await trx
      .updateTable("customer_properties")
      .set({ position: index + 1 })
      .where("id", "=", pid)
      .execute();
  return { property: list[at], other };
}

// ---- contacts ----

type ContactRow = { id: number; name: string; phone: string; properties: Record<string, PropertyValue>; updated_at: Date };
const contactColumns = ["crm_contacts.id", "name", "phone", "properties", "crm_contacts.updated_at"] as const;

async function withGroups(db: Trx, rows: ContactRow[]): Promise<CustomerContact[]> {
  const ids = rows.map((r) => r.id);
  const memberships =
    ids.length === 0
      ? []
      : await db
          .selectFrom("contact_group_members as m")
          .innerJoin("contact_groups as g", "g.id", "m.group_id")
          .select(["m.contact_id", "g.id", "g.name"])
          .where("m.contact_id", "in", ids)
          .orderBy("g.id")
          .execute();
  return rows.map((r) => ({
    id: r.id,
    name: r.name,
    phone: r.phone,
    values: r.properties ?? {},
    groups: memberships.filter((m) => m.contact_id === r.id).map((m) => ({ id: m.id, name: m.name })),
    updatedAt: r.updated_at.toISOString(),
  }));
}

/** The database's contact_name_key, a contact's name_key (migration 395): each character's code point mod 36³ as three base-36 digits. */
export function contactNameKey(text: string): string {
  return Array.from(text, (ch) => ((ch.codePointAt(0) as number) % 36 ** 3).toString(36).padStart(3, "0")).join("");
}

/** A contact's name contains the keyword: looked up by the key's trigrams, rechecked on the name. */
export function nameContains(keyword: string) {
  return sql<boolean>`(name_key LIKE ${`%${contactNameKey(keyword)}%`} AND name LIKE ${likePattern(keyword)})`;
}

function filtered(db: Db, tenantId: number, query: Pick<ContactListQuery, "keyword" | "groupId" | "values">) {
  let base = db.selectFrom("crm_contacts").where("crm_contacts.tenant_id", "=", tenantId);
  if (query.keyword) {
    // Both columns have a trigram index (migrations 240, 395), the name's on its key of code points.
    const keyword = query.keyword;
    const inName = nameContains(keyword);
    // Phones are kept as 11 digits: a keyword that is not digits (spaces and hyphens aside) can
    // only be in a name.
    const digits = keyword.replace(/[\s-]/g, "");
    base = /^\d+$/.test(digits) ? base.where((eb) => eb.or([inName, eb("phone", "like", likePattern(digits))])) : base.where(inName);
  }
  if (query.groupId) {
    const groupId = query.groupId;
    base = base.where(({ exists, selectFrom }) =>
      exists(
        selectFrom("contact_group_members")
          .select("contact_id")
          .where("group_id", "=", groupId)
          .whereRef("contact_id", "=", "crm_contacts.id"),
      ),
    );
  }
  for (const [key, value] of Object.entries(query.values ?? {})) {
    if (!value) continue;
    // A value or a multiple choice holding it: both containment, both on the GIN index.
    base = base.where((eb) =>
      eb.or([
        sql<boolean>`properties @> ${JSON.stringify({ [key]: value })}::jsonb`,
        sql<boolean>`properties @> ${JSON.stringify({ [key]: [value] })}::jsonb`,
      ]),
    );
  }
  return base;
}

/** A page of contacts, newest first: a seek on (tenant_id, id) when a cursor is given. */
export async function listContacts(db: Db, tenantId: number, query: ContactListQuery) {
  // A group alone is counted on its members (the tenant's, through the group's tenant): the same
  // number, without the planner's hash join over every contact (0.5 s at a million).
  const groupOnly = query.groupId && !query.keyword && Object.values(query.values ?? {}).every((v) => !v);
  const members = db
    .selectFrom("contact_group_members")
    .innerJoin("contact_groups", "contact_groups.id", "contact_group_members.group_id")
    .where("contact_groups.tenant_id", "=", tenantId)
    .where("contact_group_members.group_id", "=", query.groupId ?? 0);
  const base = filtered(db, tenantId, query);
  const page = await keysetPage(db, base, (q) => q.select(contactColumns), "crm_contacts.id", query, groupOnly ? members : undefined);
  return { ...page, list: await withGroups(db, page.list as unknown as ContactRow[]) };
}

export async function findContact(db: Trx, tenantId: number, id: number): Promise<CustomerContact | undefined> {
  const row = await db
    .selectFrom("crm_contacts")
    .select(contactColumns)
    .where("tenant_id", "=", tenantId)
    .where("id", "=", id)
    .executeTakeFirst();
  return row ? (await withGroups(db, [row as ContactRow]))[0] : undefined;
}

/**
 * A contact's values checked against the valid properties: each value's type, required values,
 * unique values (against the tenant's other contacts). Values of invalid properties are kept as
 * they were. The first problem is refused in Chinese.
 */
async function checkedValues(
  trx: Trx,
  tenantId: number,
  contactId: number | null,
  given: Record<string, PropertyValue>,
  kept: Record<string, PropertyValue>,
): Promise<Record<string, PropertyValue>> {
  const properties = await listProperties(trx, tenantId);
  const values: Record<string, PropertyValue> = {};
  for (const property of properties) {
    const key = String(property.id);
    if (!property.valid) {
      if (kept[key] !== undefined) values[key] = kept[key];
      continue;
    }
    const checked = checkValue(property, given[key]);
    if ("error" in checked) throw new CustomerRefused(400, checked.error);
    if (checked.value === null) {
      if (property.required) throw new CustomerRefused(400, `请填写「${property.name}」`);
      continue;
    }
    if (property.unique) {
      let clash = trx
        .selectFrom("crm_contacts")
        .select(["name", "phone"])
        .where("tenant_id", "=", tenantId)
        .where(sql<boolean>`properties @> ${JSON.stringify({ [key]: checked.value })}::jsonb`);
      if (contactId !== null) clash = clash.where("id", "<>", contactId);
      const other = await clash.executeTakeFirst();
      if (other) throw new CustomerRefused(400, `「${property.name}」的值已被联系人「${other.name || other.phone}」使用`);
    }
    values[key] = checked.value;
  }
  return values;
}

export async function saveContact(
  trx: Trx,
  tenantId: number,
  id: number | null,
  input: { name: string; phone: string; values: Record<string, PropertyValue> },
): Promise<CustomerContact> {
  const before = id === null ? undefined : await findContact(trx, tenantId, id);
  if (id !== null && !before) throw new CustomerRefused(404, "联系人不存在");
  const values = await checkedValues(trx, tenantId, id, input.values, before?.values ?? {});
  const clash = await trx
    .selectFrom("crm_contacts")
    .select(["id", "name"])
    .where("tenant_id", "=", tenantId)
    .where("phone", "=", input.phone)
    .executeTakeFirst();
  if (clash && clash.id !== id) throw new CustomerRefused(400, `手机号已存在（联系人「${clash.name || input.phone}」）`);
  const row = { name: input.name, phone: input.phone, properties: JSON.stringify(values), updated_at: new Date() };
  const saved =
    id === null
      ? await trx
          .insertInto("crm_contacts")
          .values({ ...row, tenant_id: tenantId, company: null, address: null, remark: null })
          .returning("id")
          .executeTakeFirstOrThrow()
      : await trx
          .updateTable("crm_contacts")
          .set(row)
          .where("tenant_id", "=", tenantId)
          .where("id", "=", id)
          .returning("id")
          .executeTakeFirstOrThrow();
  return (await findContact(trx, tenantId, saved.id))!;
}

/** Deletes the tenant's contacts among `ids`; answers which were deleted and which were not found. */
export async function deleteContacts(trx: Trx, tenantId: number, ids: number[]) {
  const rows = await trx
    .deleteFrom("crm_contacts")
    .where("tenant_id", "=", tenantId)
    .where("id", "in", ids)
    .returning(["id", "name", "phone"])
    .execute();
  const deleted = new Set(rows.map((r) => r.id));
  return { rows, missing: ids.filter((id) => !deleted.has(id)) };
}

/** The contacts of a selection or a group (at most `limit`), oldest first. */
/**
 * The contacts a send or a campaign hand-off takes: the selection, or a group's members. A group
 * larger than `limit` is refused, saying so, rather than cut short in silence.
 */
export async function contactsFor(db: Trx, tenantId: number, target: { ids: number[]; groupId?: number }, limit: number) {
  let query = db.selectFrom("crm_contacts").select(["id", "name", "phone", "properties"]).where("tenant_id", "=", tenantId);
  if (target.groupId) {
    const groupId = target.groupId;
    query = query.where(({ exists, selectFrom }) =>
      exists(
        selectFrom("contact_group_members")
          .select("contact_id")
          .where("group_id", "=", groupId)
          .whereRef("contact_id", "=", "crm_contacts.id"),
      ),
    );
  } else query = query.where("id", "in", target.ids);
  const rows = await query
    .orderBy("id")
    .limit(limit + 1)
    .execute();
  if (rows.length > limit) throw new CustomerRefused(400, `分组超过${limit}人，一次最多处理${limit}人，请拆分分组后再操作`);
  return rows;
}

/** Every contact of a filtered list, in keyset batches, as export rows (memory stays flat). */
export async function* exportContacts(db: Db, tenantId: number, query: Pick<ContactListQuery, "keyword" | "groupId" | "values">) {
  const properties = await listProperties(db, tenantId, true);
  yield [BUILT_IN_COLUMNS.name, BUILT_IN_COLUMNS.phone, ...properties.map((p) => p.name), "分组"];
  let after = 2_147_483_647; // ids are int4
  for (;;) {
    const rows = await filtered(db, tenantId, query)
      .select(["crm_contacts.id", "name", "phone", "properties"])
      .where("crm_contacts.id", "<", after)
      .orderBy("crm_contacts.id", "desc")
      .limit(1000)
      .execute();
    if (rows.length === 0) return;
    const contacts = await withGroups(db, rows.map((r) => ({ ...r, updated_at: new Date(0) })) as ContactRow[]);
    for (const c of contacts) {
      yield [
        c.name,
        c.phone,
        ...properties.map((p) => {
          const v = c.values[String(p.id)];
          return Array.isArray(v) ? v.join("、") : (v ?? "");
        }),
        c.groups.map((g) => g.name).join("、"),
      ];
    }
    after = rows[rows.length - 1].id;
  }
}

// ---- groups ----

export async function listGroups(db: Trx, tenantId: number): Promise<ContactGroup[]> {
  const rows = await db
    .selectFrom("contact_groups as g")
    .leftJoin("contact_group_members as m", "m.group_id", "g.id")
    .select(["g.id", "g.name", sql<number>`count(m.contact_id)::int`.as("n")])
    .where("g.tenant_id", "=", tenantId)
    .groupBy(["g.id", "g.name"])
    .orderBy("g.id")
    .execute();
  return rows.map((r) => ({ id: r.id, name: r.name, memberCount: Number(r.n) }));
}

export async function findGroup(db: Trx, tenantId: number, id: number) {
  return (await listGroups(db, tenantId)).find((g) => g.id === id);
}

/** Adds the tenant's contacts among `ids` to a group (another tenant's ids are ignored). */
async function addMembers(trx: Trx, tenantId: number, groupId: number, ids: number[]) {
  if (ids.length === 0) return 0;
  const result = await sql`INSERT INTO contact_group_members (group_id, contact_id)
            SELECT ${groupId}, id FROM crm_contacts WHERE tenant_id = ${tenantId} AND id = ANY(${ids}::int[])
            ON CONFLICT DO NOTHING`.execute(trx);
  return Number(result.numAffectedRows ?? 0);
}

export async function createGroup(trx: Trx, tenantId: number, name: string, ids: number[]) {
  try {
    const row = await trx.insertInto("contact_groups").values({ tenant_id: tenantId, name }).returning("id").executeTakeFirstOrThrow();
    await addMembers(trx, tenantId, row.id, ids);
    return (await findGroup(trx, tenantId, row.id))!;
  } catch (error) {
    if (isUniqueViolation(error)) throw new CustomerRefused(400, "分组名称已存在");
    throw error;
  }
}

export async function updateGroup(
  trx: Trx,
  tenantId: number,
  id: number,
  change: { name?: string; addIds: number[]; removeIds: number[] },
) {
  const before = await findGroup(trx, tenantId, id);
  if (!before) throw new CustomerRefused(404, "分组不存在");
  if (change.name && change.name !== before.name) {
    try {
      await trx.updateTable("contact_groups").set({ name: change.name }).where("id", "=", id).execute();
    } catch (error) {
      if (isUniqueViolation(error)) throw new CustomerRefused(400, "分组名称已存在");
      throw error;
    }
  }
  const added = await addMembers(trx, tenantId, id, change.addIds);
  let removed = 0;
  if (change.removeIds.length > 0) {
    const rows = await trx
      .deleteFrom("contact_group_members")
      .where("group_id", "=", id)
      .where("contact_id", "in", change.removeIds)
      .execute();
    removed = Number(rows[0]?.numDeletedRows ?? 0);
  }
  return { before, after: (await findGroup(trx, tenantId, id))!, added, removed };
}

export async function deleteGroup(trx: Trx, tenantId: number, id: number) {
  const group = await findGroup(trx, tenantId, id);
  if (!group) throw new CustomerRefused(404, "分组不存在");
  await trx.deleteFrom("contact_groups").where("tenant_id", "=", tenantId).where("id", "=", id).execute();
  return group;
}
