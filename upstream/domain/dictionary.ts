import type { z } from "zod";
import type { DictionaryEntrySchema } from "#contracts/crm";

type DictionaryEntry = z.infer<typeof DictionaryEntrySchema>;

/** Dictionaries the platform knows, by type (GET /crm/api/dictionary?type=...). */
const dictionaries: Record<string, readonly DictionaryEntry[]> = {
  ROBOT_INDUSTRY: [
    { code: "finance", name: "金融" },
    { code: "insurance", name: "保险" },
    { code: "ecommerce", name: "电商零售" },
    { code: "education", name: "教育培训" },
    { code: "healthcare", name: "医疗健康" },
    { code: "government", name: "政务服务" },
    { code: "logistics", name: "物流快递" },
    { code: "real_estate", name: "房产家居" },
    { code: "automotive", name: "汽车" },
    { code: "telecom", name: "通信运营" },
    { code: "travel", name: "旅游出行" },
    { code: "utilities", name: "水电燃气" },
    { code: "other", name: "其他" },
  ],
};

/** The entries of a dictionary; an unknown type is an empty dictionary, not an error. */
export function dictionaryEntries(type: string): DictionaryEntry[] {
  return Object.hasOwn(dictionaries, type) ? [...dictionaries[type]] : [];
}
