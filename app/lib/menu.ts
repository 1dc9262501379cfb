import { SUCCESS_CODE } from "#contracts/envelope";
import type { MenuItem } from "#contracts/crm";
import { TEXT_AGENT_WORK_TYPE } from "#contracts/codes";

/** Spec §2 menu codes. */
export const VOICE_WORK_MENU_CODE = "aiaas_agent_work";
export const TEXT_WORK_MENU_CODE = "aiaas_agent_text_work";

export function isTextAgent(workType: number | null | undefined): boolean {
  return workType === TEXT_AGENT_WORK_TYPE;
}

/** Spec §5: a menu response with code 1 is accepted, otherwise the menu is emptied. */
export function menuFromResponse(response: { code: number; data?: { menu: { children: MenuItem[] } } | null }): MenuItem[] {
  return response.code === SUCCESS_CODE ? (response.data?.menu.children ?? []) : [];
}

/** Spec §5: voice work is hidden for text agents (workType 3), text work for everyone else. */
export function menuForWorkType(items: readonly MenuItem[], workType: number | null | undefined): MenuItem[] {
  const hidden = isTextAgent(workType) ? VOICE_WORK_MENU_CODE : TEXT_WORK_MENU_CODE;
  return items
    .filter((item) => item.code !== hidden)
    .map((item) => (item.children ? { ...item, children: menuForWorkType(item.children, workType) } : item));
}

/** Spec §6: a menu entry can be found by its code. */
export function findMenuByCode(items: readonly MenuItem[], code: string): MenuItem | undefined {
  for (const item of items) {
    if (item.code === code) return item;
    const found = findMenuByCode(item.children ?? [], code);
    if (found) return found;
  }
  return undefined;
}
