import type { ColumnType, Generated, GeneratedAlways, Insertable, Selectable } from "kysely";
import type { FlowNode, FlowVersionParams } from "#contracts/robot";
import type { ScoredItem, ScoreFormItem } from "#contracts/inspection-scoring";
import type { PoorQuality } from "#contracts/contact";
import type { Role } from "#contracts/uaa";
import type { WorkOrderField } from "#contracts/work-orders";

/**
 * Table types as the database holds them (snake_case, as in the migrations). Each migration that
 * changes a table changes its interface here; repositories map rows to the contracts' camelCase.
 */

/** A timestamptz column: read as a Date, written as a Date or ISO string, defaulted by the database. */
type Timestamp = ColumnType<Date, Date | string | undefined, Date | string>;
type NullableTimestamp = ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;

export interface TenantsTable {
  id: Generated<number>;
  code: string;
  name: string;
  customer_id: string;
  created_at: Timestamp;
  /** The company details a new tenant fills in (migration 100); null for the seeded tenants. */
  industry: ColumnType<string | null, string | null | undefined, string | null>;
  contact_name: ColumnType<string | null, string | null | undefined, string | null>;
  contact_email: ColumnType<string | null, string | null | undefined, string | null>;
  address: ColumnType<string | null, string | null | undefined, string | null>;
  profile_completed_at: NullableTimestamp;
}

export interface UsersTable {
  id: Generated<number>;
  tenant_id: number;
  user_name: string;
  real_name: string;
  password_hash: string;
  /** Held to the three roles by a check constraint. */
  role: Role;
  /** 1 voice agent, 3 text agent (spec §3, §9). */
  work_type: ColumnType<number, number | undefined, number>;
  agent_id: string | null;
  default_queue_name: ColumnType<string, string | undefined, string>;
  auto_answer: ColumnType<boolean, boolean | undefined, boolean>;
  agent_state: ColumnType<string, string | undefined, string>;
  last_login_at: NullableTimestamp;
  created_at: Timestamp;
  /** Unique when set: a sign-up's account; a password reset sends its code here. */
  mobile: ColumnType<string | null, string | null | undefined, string | null>;
}

export interface AccessTokensTable {
  /** sha256 hex of the bearer token; the token itself is never stored. */
  token_hash: string;
  user_id: number;
  tenant_id: number;
  expires_at: ColumnType<Date, Date | string, Date | string>;
  created_at: Timestamp;
}

/** A column the database fills when it is not given. */
type Defaulted<T> = ColumnType<T, T | undefined, T>;
/** jsonb: read as parsed JSON, written as a JSON string or value. */
type Json<T> = ColumnType<T, T | string | undefined, T | string>;
/** bigint ids are read as numbers (see type-parsers.ts). */
type BigId = Generated<number>;

export type CallingWindow = { start: string; end: string };

export interface CampaignsTable {
  id: Generated<number>;
  tenant_id: number;
  name: string;
  type: number;
  task_type: Defaulted<number>;
  cycle: Defaulted<number>;
  state: Defaulted<number>;
  ratio: Defaulted<number>;
  calling_list_name: string | null;
  instance_name: string | null;
  flow_id: number | null;
  flow_version_name: string | null;
  queue_name: string | null;
  caller_number: string | null;
  /** Migration 061: the robot instance and transfer template chosen (the tenant's own). */
  robot_instance_id: number | null;
  trans_template_id: number | null;
  windows: Json<CallingWindow[]>;
  start_date: string | null;
  end_date: string | null;
  max_attempts: Defaulted<number>;
  created_by: number | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface TaskBatchesTable {
  id: Generated<number>;
  tenant_id: number;
  campaign_id: number;
  name: string;
  status: Defaulted<number>;
  total: Defaulted<number>;
  /** Calls waiting or being dialled (statuses 0, 1), kept by triggers on task_calls (migration 063). */
  open_calls: Defaulted<number>;
  next_run_at: NullableTimestamp;
  started_at: NullableTimestamp;
  finished_at: NullableTimestamp;
  created_at: Timestamp;
  updated_at: Timestamp;
}

/** How many of a batch's calls are in each status, kept by triggers on task_calls (migration 064). */
export interface TaskBatchCallCountsTable {
  batch_id: number;
  status: number;
  calls: number;
}

export interface TaskCallsTable {
  id: BigId;
  tenant_id: number;
  campaign_id: number;
  batch_id: number;
  phone: string;
  customer_name: string | null;
  status: Defaulted<number>;
  hangup_party: number | null;
  attempts: Defaulted<number>;
  agent_user_id: number | null;
  user_data: Json<Record<string, unknown>>;
  /** Why an agent skipped this contact in a preview list (migration 020). */
  skip_reason: string | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface CallRecordsTable {
  id: BigId;
  tenant_id: number;
  cti_call_id: string;
  prev_cti_call_id: string | null;
  direction: "outbound" | "inbound";
  campaign_id: number | null;
  batch_id: number | null;
  task_call_id: number | null;
  campaign_type: number | null;
  call_kind: Defaulted<number>;
  phone: string;
  agent_user_id: number | null;
  queue_name: string | null;
  is_answer: Defaulted<number>;
  outbound_result: string | null;
  call_result: number;
  call_result_name: string;
  intent: string | null;
  qc_status: Defaulted<number>;
  conclusion: number | null;
  hangup_party: number | null;
  call_time: ColumnType<Date, Date | string, Date | string>;
  call_duration_ms: Defaulted<number>;
  instance_name: string | null;
  flow_id: number | null;
  flow_version_name: string | null;
  gender: Defaulted<number>;
  attach_data: Json<Record<string, unknown>>;
  user_data: Json<Record<string, unknown>>;
  group_dn: string | null;
  dn: string | null;
  recording: string | null;
  /** Migration 085: how long the call waited in its queue before an agent answered. */
  queue_wait_ms: ColumnType<number | null, number | null | undefined, number | null>;
  /** Migration 396: the agent's softphone found the audio poor. */
  poor_quality: ColumnType<PoorQuality | null, string | null | undefined, string | null>;
  /** Migration 120: the inspection (qc_status above): who holds or gave it, the lock, the result's influence and remark. */
  qc_inspector_id: ColumnType<number | null, number | null | undefined, number | null>;
  qc_locked_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
  qc_influence: ColumnType<number | null, number | null | undefined, number | null>;
  qc_remark: ColumnType<string | null, string | null | undefined, string | null>;
  qc_checked_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
  /** Migration 200: the scoring form's total of the call's evaluation (decision 028). */
  qc_score: ColumnType<number | null, number | null | undefined, number | null>;
  created_at: Timestamp;
}

/** Migration 120: an agent's appeal of an inspection result, one per call. */
export interface InspectionAppealsTable {
  id: Generated<number>;
  tenant_id: number;
  call_record_id: number;
  agent_user_id: number;
  reason: string;
  state: Defaulted<string>;
  decided_by: number | null;
  decision_reason: string | null;
  created_at: Timestamp;
  decided_at: NullableTimestamp;
}

/** Migration 200: a tenant's scoring forms (decision 028); at most one active. */
export interface InspectionFormsTable {
  id: Generated<number>;
  tenant_id: number;
  name: string;
  description: Defaulted<string>;
  state: Defaulted<"draft" | "active" | "retired">;
  items: Json<ScoreFormItem[]>;
  created_by: number | null;
  created_at: Timestamp;
  updated_at: Timestamp;
  activated_at: NullableTimestamp;
}

/** Migration 200: a call's evaluation with a scoring form, one per call. */
export interface InspectionEvaluationsTable {
  id: Generated<number>;
  tenant_id: number;
  call_record_id: number;
  form_id: number;
  form_name: string;
  score: number;
  vetoed: boolean;
  items: Json<ScoredItem[]>;
  inspector_id: number | null;
  created_at: Timestamp;
  /** Migration 350: 1 as scored; each accepted appeal that re-scores the items adds the next. */
  version: Defaulted<number>;
  reason: string | null;
  appeal_id: number | null;
}

/** Migration 120: who may inspect which agent groups (queues) or campaigns. */
export interface InspectionAccessTable {
  id: Generated<number>;
  tenant_id: number;
  user_id: number;
  scope: "queue" | "campaign";
  value: string;
  granted_by: number | null;
  created_at: Timestamp;
}

export interface CallDialogsTable {
  id: BigId;
  tenant_id: number;
  call_record_id: number;
  seq: number;
  dialog_type: Defaulted<number>;
  this_role: number;
  content: string;
  nlu_result: string | null;
  gender: Defaulted<number>;
  record_start_ms: number | null;
  record_end_ms: number | null;
}

/** Migration 003, renamed by 080: a numbered, replayable real-time notification for a user or a tenant's supervisors. */
export interface NotificationsTable {
  id: BigId;
  tenant_id: number;
  /** The user of a "user" notification; null for a tenant's. */
  user_id: number | null;
  audience: Defaulted<"user" | "tenant">;
  /** The queue a tenant notification is about (supervisors may follow one queue). */
  queue_name: string | null;
  type: string;
  payload: Json<unknown>;
  created_at: Timestamp;
}

/** Migration 080: when each user's real-time stream was last seen open. */
/** A call the CTI's owner holds in memory, as it last changed (migration 397). */
export interface CtiLiveCallsTable {
  cti_call_id: string;
  tenant_id: number;
  call: Json<unknown>;
  updated_at: Timestamp;
}

export interface UserPresenceTable {
  user_id: number;
  tenant_id: number;
  last_seen_at: ColumnType<Date, Date | string, Date | string>;
}

/** A robot flow's input parameters and output states (migration 010). */
export interface FlowParamsTable {
  id: Generated<number>;
  tenant_id: number;
  flow_id: number;
  kind: "input" | "state";
  seq: number;
  name: string;
  variable: string;
}

export interface CrmContactsTable {
  id: Generated<number>;
  tenant_id: number;
  name: string;
  phone: string;
  gender: Defaulted<number>;
  company: string | null;
  address: string | null;
  remark: string | null;
  tags: Json<string[]>;
  created_at: Timestamp;
  /** Migration 140: property values keyed by property id (a string, or strings for a multiple choice). */
  properties: Json<Record<string, string | string[]>>;
  updated_at: Timestamp;
  /** Migration 395: the name's search key (contact_name_key), made by the database on every write. */
  name_key: GeneratedAlways<string>;
}

/** Migration 140: a tenant's custom customer properties (CUSTOMER_PROPERTY_TYPES). */
export interface CustomerPropertiesTable {
  id: Generated<number>;
  tenant_id: number;
  name: string;
  type: string;
  options: Defaulted<string[]>;
  required: Defaulted<boolean>;
  is_unique: Defaulted<boolean>;
  valid: Defaulted<boolean>;
  position: number;
  created_at: Timestamp;
}

export interface ContactGroupsTable {
  id: Generated<number>;
  tenant_id: number;
  name: string;
  created_at: Timestamp;
}

export interface ContactGroupMembersTable {
  group_id: number;
  contact_id: number;
}

/** Migration 140: a contact import and its rejected rows (the error export). */
export interface CrmImportsTable {
  id: Generated<number>;
  tenant_id: number;
  file_name: string;
  created: Defaulted<number>;
  updated: Defaulted<number>;
  rejected: Defaulted<number>;
  created_at: Timestamp;
}

/** Migration 180: an uploaded contact file waiting for its column mapping. */
export interface CrmImportUploadsTable {
  id: Generated<number>;
  tenant_id: number;
  file_name: string;
  content: Buffer;
  created_at: Timestamp;
}

export interface CrmImportErrorsTable {
  import_id: number;
  row_no: number;
  phone: string;
  name: string;
  reason: string;
}

/** Migration 140: an SMS template and its review state (SMS_TEMPLATE_STATES). */
export interface SmsTemplatesTable {
  id: Generated<number>;
  tenant_id: number;
  name: string;
  signature: string;
  content: string;
  state: Defaulted<string>;
  reason: string | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface RobotFlowsTable {
  id: Generated<number>;
  tenant_id: number;
  name: string;
  service_script: Json<Array<{ title: string; content: string }>>;
  created_at: Timestamp;
  /** Migration 130: the flow's description, the version in service (the robots speak it), last change. */
  description: ColumnType<string, string | undefined, string>;
  service_version_id: ColumnType<number | null, number | null | undefined, number | null>;
  updated_at: Timestamp;
}

/** Migration 130: a flow's versions (state: FLOW_VERSION_STATES; nodes: contracts/robot.ts FlowNode[]). */
export interface RobotFlowVersionsTable {
  id: Generated<number>;
  tenant_id: number;
  flow_id: number;
  no: number;
  state: ColumnType<number, number | undefined, number>;
  nodes: Json<FlowNode[]>;
  return_reason: ColumnType<string | null, string | null | undefined, string | null>;
  based_on_no: ColumnType<number | null, number | null | undefined, number | null>;
  created_by: ColumnType<string | null, string | null | undefined, string | null>;
  created_at: Timestamp;
  updated_at: Timestamp;
  published_at: NullableTimestamp;
  /** Migration 210: its input parameters and output states; null: the flow's flow_params rows. */
  params: ColumnType<FlowVersionParams | null, string | null | undefined, string | null>;
}

export interface KnowledgeNodesTable {
  id: Generated<number>;
  tenant_id: number;
  group_id: number;
  /** The question. */
  title: string;
  /** The answer: what the agent reads or inserts as a quick reply. */
  content: string;
  labels: ColumnType<string[], string[] | undefined, string[]>;
  /** 1 enabled, 0 disabled (KNOWLEDGE_STATES): only enabled nodes reach the agents. */
  state: Defaulted<number>;
  usage_count: Defaulted<number>;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface KnowledgeGroupsTable {
  id: Generated<number>;
  tenant_id: number;
  name: string;
  created_at: Timestamp;
}

export interface KnowledgeLabelsTable {
  id: Generated<number>;
  tenant_id: number;
  name: string;
}

/** Searches agents made that found nothing, one row per tenant and keyword. */
export interface KnowledgeGapsTable {
  tenant_id: number;
  keyword: string;
  times: Defaulted<number>;
  first_at: Timestamp;
  last_at: Timestamp;
}

export interface WorkOrderRecordsTable {
  id: Generated<number>;
  tenant_id: number;
  number: string;
  title: string;
  content: Defaulted<string>;
  follow_state: Defaulted<number>;
  cti_call_id: string | null;
  created_by: number | null;
  created_at: Timestamp;
  template_id: number | null;
  values: Json<Record<string, string>>;
  owner_user_id: number | null;
  due_at: NullableTimestamp;
  updated_at: Timestamp;
  /** Migration 190: the chat session a text agent made it from. */
  chat_session_id: number | null;
}

export interface WorkOrderTemplatesTable {
  id: Generated<number>;
  tenant_id: number;
  name: string;
  fields: Json<WorkOrderField[]>;
  sla_hours: Defaulted<number>;
  status: Defaulted<number>;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface WorkOrderFollowsTable {
  id: Generated<number>;
  tenant_id: number;
  record_id: number;
  kind: "create" | "receive" | "reassign" | "follow";
  from_state: number | null;
  to_state: number;
  note: Defaulted<string>;
  actor_user_id: number | null;
  actor_name: string;
  created_at: Timestamp;
}

export interface WorkOrderNumbersTable {
  tenant_id: number;
  day: string;
  last: number;
}

export interface BusinessRecordsTable {
  id: Generated<number>;
  tenant_id: number;
  cti_call_id: string;
  phone: string;
  agent_user_id: number | null;
  call_result: number;
  intent: string | null;
  remark: Defaulted<string>;
  fields: Json<Record<string, string>>;
  work_order_id: number | null;
  idempotency_key: string;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface ChatSessionsTable {
  id: BigId;
  tenant_id: number;
  session_key: string;
  queue_name: string;
  state: Defaulted<"waiting" | "active" | "closed">;
  agent_user_id: number | null;
  customer_name: string;
  customer_phone: string;
  customer_channel: string;
  customer_region: string;
  created_at: Timestamp;
  closed_at: NullableTimestamp;
}
export interface ChatMessagesTable {
  id: BigId;
  tenant_id: number;
  session_id: number;
  role: "user" | "agent" | "system";
  content: string;
  client_id: string | null;
  created_at: Timestamp;
}
export interface ChatBusinessRecordsTable {
  session_id: number;
  tenant_id: number;
  agent_user_id: number | null;
  category: string;
  result: number;
  remark: Defaulted<string>;
  updated_at: Timestamp;
}
export interface Database {
  tenants: TenantsTable;
  users: UsersTable;
  access_tokens: AccessTokensTable;
  campaigns: CampaignsTable;
  task_batches: TaskBatchesTable;
  task_batch_call_counts: TaskBatchCallCountsTable;
  task_calls: TaskCallsTable;
  call_records: CallRecordsTable;
  call_dialogs: CallDialogsTable;
  notifications: NotificationsTable;
  user_presence: UserPresenceTable;
  cti_live_calls: CtiLiveCallsTable;
  flow_params: FlowParamsTable;
  task_transitions: TaskTransitionsTable;
  handoffs: HandoffsTable;
  contact_imports: ContactImportsTable;
  contact_import_errors: ContactImportErrorsTable;
  blacklist: BlacklistTable;
  trans_templates: TransTemplatesTable;
  robot_instances: RobotInstancesTable;
  caller_id_numbers: CallerIdNumbersTable;
  crm_contacts: CrmContactsTable;
  customer_properties: CustomerPropertiesTable;
  contact_groups: ContactGroupsTable;
  contact_group_members: ContactGroupMembersTable;
  crm_imports: CrmImportsTable;
  crm_import_errors: CrmImportErrorsTable;
  crm_import_uploads: CrmImportUploadsTable;
  sms_templates: SmsTemplatesTable;
  robot_flows: RobotFlowsTable;
  robot_flow_versions: RobotFlowVersionsTable;
  robot_regexes: RobotRegexesTable;
  robot_working_days: RobotWorkingDaysTable;
  robot_festivals: RobotFestivalsTable;
  robot_gateway_lines: RobotGatewayLinesTable;
  knowledge_nodes: KnowledgeNodesTable;
  knowledge_groups: KnowledgeGroupsTable;
  knowledge_labels: KnowledgeLabelsTable;
  knowledge_gaps: KnowledgeGapsTable;
  work_order_records: WorkOrderRecordsTable;
  work_order_templates: WorkOrderTemplatesTable;
  work_order_follows: WorkOrderFollowsTable;
  work_order_numbers: WorkOrderNumbersTable;
  business_records: BusinessRecordsTable;
  chat_sessions: ChatSessionsTable;
  chat_messages: ChatMessagesTable;
  chat_business_records: ChatBusinessRecordsTable;
  audit_log: AuditLogTable;
  sms_messages: SmsMessagesTable;
  monitor_rules: MonitorRulesTable;
  queue_settings: QueueSettingsTable;
  agent_state_log: AgentStateLogTable;
  sign_in_failures: SignInFailuresTable;
  billing_accounts: BillingAccountsTable;
  verification_codes: VerificationCodesTable;
  code_challenges: CodeChallengesTable;
  inspection_appeals: InspectionAppealsTable;
  inspection_access: InspectionAccessTable;
  inspection_forms: InspectionFormsTable;
  inspection_evaluations: InspectionEvaluationsTable;
}

/** Migration 020 (outbound): every batch or call transition, for a batch's history. */
export interface TaskTransitionsTable {
  id: BigId;
  tenant_id: number;
  batch_id: number;
  /** Null when the transition is the batch's own. */
  task_call_id: number | null;
  from_status: number | null;
  to_status: number;
  reason: string;
  at: ColumnType<Date, Date | string, Date | string>;
}

export type HandoffState = "waiting" | "handed" | "lost";
export interface HandoffsTable {
  id: Generated<number>;
  tenant_id: number;
  campaign_id: number;
  batch_id: number;
  task_call_id: number;
  call_record_id: number | null;
  phone: string;
  intent: string | null;
  state: HandoffState;
  agent_user_id: number | null;
  /** Migration 210: the queue it goes to (the flow's transfer node, the robot's or the campaign's). */
  queue_name: ColumnType<string | null, string | null | undefined, string | null>;
  created_at: ColumnType<Date, Date | string, Date | string>;
  updated_at: ColumnType<Date, Date | string, Date | string>;
}

export interface ContactImportsTable {
  id: Generated<number>;
  tenant_id: number;
  campaign_id: number;
  batch_id: number | null;
  file_name: string;
  accepted: number;
  rejected: number;
  created_at: Timestamp;
  /** running, done or failed (IMPORT_STATUSES); rows read so far and, when failed, why. */
  status: Generated<string>;
  processed: Generated<number>;
  message: string | null;
  finished_at: NullableTimestamp;
  updated_at: Timestamp;
}

export interface ContactImportErrorsTable {
  id: BigId;
  import_id: number;
  row_no: number;
  phone: string;
  customer_name: string;
  reason: string;
}

export interface BlacklistTable {
  tenant_id: number;
  phone: string;
  reason: string;
}

export interface TransTemplatesTable {
  id: Generated<number>;
  tenant_id: number;
  name: string;
  type: number;
  target: string;
  agent_user_id: number | null;
}

/** Migration 061: a tenant's robot instances and the flow each runs (the campaign form's robots). */
export interface RobotInstancesTable {
  id: Generated<number>;
  tenant_id: number;
  name: string;
  flow_id: number | null;
  flow_version_name: string | null;
  created_at: Timestamp;
  /** Migration 130: calls at once, the queue its hand-offs go to (allocate), its caller number. */
  concurrency: ColumnType<number, number | undefined, number>;
  queue_name: ColumnType<string | null, string | null | undefined, string | null>;
  caller_number: ColumnType<string | null, string | null | undefined, string | null>;
  /** Migration 320: its speaker (ROBOT_SPEAKERS), gateway line, and whether it follows the working calendar. */
  speaker: ColumnType<string | null, string | null | undefined, string | null>;
  line_id: ColumnType<number | null, number | null | undefined, number | null>;
  follow_calendar: ColumnType<boolean, boolean | undefined, boolean>;
}

/** Migration 220: a tenant's regular expressions (decision 030). */
export interface RobotRegexesTable {
  id: Generated<number>;
  tenant_id: number;
  name: string;
  pattern: string;
  description: ColumnType<string, string | undefined, string>;
  updated_by: string | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}

/** Migration 220: the working calendar, one row per weekday (1 Monday … 7 Sunday), times as HH:MM. */
export interface RobotWorkingDaysTable {
  tenant_id: number;
  weekday: number;
  enabled: boolean;
  start_time: string;
  end_time: string;
}

/** Migration 220: festival date ranges, inclusive (read as YYYY-MM-DD text). */
export interface RobotFestivalsTable {
  id: Generated<number>;
  tenant_id: number;
  name: string;
  start_date: ColumnType<string, string, string>;
  end_date: ColumnType<string, string, string>;
}

/** Migration 220: the gateway lines a tenant's robots dial out on. */
export interface RobotGatewayLinesTable {
  id: Generated<number>;
  tenant_id: number;
  name: string;
  carrier: string;
  prefix: string;
  concurrency: number;
  enabled: ColumnType<boolean, boolean | undefined, boolean>;
}

/** Migration 061: a tenant's caller-id numbers (the campaign form's caller numbers). */
export interface CallerIdNumbersTable {
  id: Generated<number>;
  tenant_id: number;
  number: string;
}

export type Tenant = Selectable<TenantsTable>;
export type NewTenant = Insertable<TenantsTable>;
export type User = Selectable<UsersTable>;
export type NewUser = Insertable<UsersTable>;

export type Campaign = Selectable<CampaignsTable>;
export type TaskBatch = Selectable<TaskBatchesTable>;
export type TaskCall = Selectable<TaskCallsTable>;
export type NewCallRecord = Insertable<CallRecordsTable>;
export type NewCallDialog = Insertable<CallDialogsTable>;
/** A transcript line as a call is recorded, before it belongs to a record. */
export type NewDialogLine = Omit<NewCallDialog, "tenant_id" | "call_record_id" | "seq">;

/** Migration 070: one row per administrative or supervisor change (repositories/audit-log.ts writes it). */
export interface AuditLogTable {
  id: BigId;
  tenant_id: number;
  actor_user_id: number | null;
  actor_name: string;
  action: string;
  target_type: string;
  target_id: string | null;
  summary: string;
  reason: string | null;
  detail: ColumnType<Record<string, unknown> | null, string | null | undefined, string | null>;
  created_at: Timestamp;
}

/** Migration 075: the SMS outbox (repositories/sms-outbox.ts; the carrier simulator moves each message). */
export interface SmsMessagesTable {
  id: BigId;
  tenant_id: number | null;
  phone: string;
  content: string;
  signature: Defaulted<string>;
  kind: string;
  segments: number;
  status: Defaulted<"queued" | "sent" | "delivered" | "failed">;
  failure_reason: string | null;
  created_by: number | null;
  created_at: Timestamp;
  sent_at: NullableTimestamp;
  delivered_at: NullableTimestamp;
  /** Migration 140: the template a tenant's message was written from. */
  template_id: ColumnType<number | null, number | null | undefined, number | null>;
}

/** Migration 085: a tenant's monitor thresholds (MONITOR_RULE_KEYS). */
export interface MonitorRulesTable {
  tenant_id: number;
  rule_key: string;
  warning_seconds: number;
  critical_seconds: number;
  updated_by: number | null;
  updated_at: Timestamp;
}

/** Migration 160: how long an offered call rings at an agent of the queue. */
export interface QueueSettingsTable {
  tenant_id: number;
  queue_name: string;
  ring_seconds: number;
  /** Migration 355: after-call work ends by itself (once the result is saved), or only when the agent is ready. */
  acw_auto_ready: Generated<boolean>;
  updated_by: number | null;
  updated_at: Timestamp;
}

/** Migration 085: each period an agent spent in a phone state. */
export interface AgentStateLogTable {
  id: BigId;
  tenant_id: number;
  user_id: number;
  state: string;
  reason: string | null;
  cti_call_id: string | null;
  started_at: ColumnType<Date, Date | string, Date | string>;
  ended_at: NullableTimestamp;
}

/** Migration 090: failed sign-ins, per account name and client address (the sign-in throttle). */
export interface SignInFailuresTable {
  id: BigId;
  user_name: string;
  client_address: string;
  failed_at: ColumnType<Date, Date | string, Date | string>;
}

export interface BillingAccountsTable {
  id: Generated<number>;
  tenant_id: number;
  balance_cents: ColumnType<string | number, number | undefined, number>;
  created_at: Timestamp;
}

export interface VerificationCodesTable {
  id: BigId;
  phone: string;
  purpose: "register" | "reset";
  client_address: string;
  code_hash: string;
  salt: string;
  failed_tries: ColumnType<number, number | undefined, number>;
  created_at: ColumnType<Date, Date | string, Date | string>;
  expires_at: ColumnType<Date, Date | string, Date | string>;
  closed_at: NullableTimestamp;
  locked_until: NullableTimestamp;
  /** Migration 170: how the code went to the phone. */
  channel: ColumnType<"sms" | "voice", "sms" | "voice" | undefined, "sms" | "voice">;
}

/** Migration 170: the picture challenges a code request answers first (decision 024). */
export interface CodeChallengesTable {
  id: string;
  answer_hash: string;
  client_address: string;
  created_at: ColumnType<Date, Date | string, Date | string>;
  expires_at: ColumnType<Date, Date | string, Date | string>;
  used_at: NullableTimestamp;
}
