/** The text workbench island's endpoints: its actions (POST) and its event stream. */
export const CHAT_ACTIONS = "/textWorkBench/actions";
export const CHAT_EVENTS = "/textWorkBench/events";
