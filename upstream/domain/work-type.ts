import { TEXT_AGENT_WORK_TYPE } from "#contracts/codes";

/** Agent work types (spec §3, §9): 3 marks a text (chat) agent; 1 is the voice agent. */
export const WorkType = { voice: 1, text: TEXT_AGENT_WORK_TYPE } as const;

export function isTextWorkType(workType: number): boolean {
  return workType === WorkType.text;
}
