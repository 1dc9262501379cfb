import type { MenuItem } from "#contracts/crm";
import { WORK_ORDER_MENU_URLS } from "#contracts/work-order-values";
import { flattenMenu, normalisePath } from "./access";

/**
 * Who makes work orders (decision 026): whoever's menu lists a work-order screen, the platform's
 * rule too. The form is shown, and its action allowed, only to them.
 */
export function mayCreateWorkOrders(menu: readonly MenuItem[]): boolean {
  const urls = flattenMenu(menu).map((item) => normalisePath(item.url));
  return WORK_ORDER_MENU_URLS.some((url) => urls.includes(url));
}

/** The screen a work order opens in for this user (`/businessTemplate/record` over `/agentTask/workOrder`), or null. */
export function workOrderScreen(menu: readonly MenuItem[]): string | null {
  const urls = flattenMenu(menu).map((item) => normalisePath(item.url));
  return [...WORK_ORDER_MENU_URLS].reverse().find((url) => urls.includes(url)) ?? null;
}
