import type { BrandKey } from "#contracts/config";

export type Brand = { key: BrandKey; title: string };

/** The three variants of spec §1; the title is the page-title suffix. */
export const BRANDS: Record<BrandKey, Brand> = {
  default: { key: "default", title: "云客服平台" },
  gov: { key: "gov", title: "政务服务中心" },
  medical: { key: "medical", title: "远程医疗中心" },
};

export type BrandCodes = { gov: string; medical: string };
export const DEFAULT_BRAND_CODES: BrandCodes = { gov: "zwfw", medical: "ycyl" };

/** A variant is selected when the host contains its code; anything else is the default. */
export function selectBrand(host: string | null | undefined, codes: BrandCodes = DEFAULT_BRAND_CODES): Brand {
  const name = (host ?? "").toLowerCase();
  if (codes.gov && name.includes(codes.gov.toLowerCase())) return BRANDS.gov;
  if (codes.medical && name.includes(codes.medical.toLowerCase())) return BRANDS.medical;
  return BRANDS.default;
}

export function pageTitle(screen: string | undefined, brand: Brand): string {
  return screen ? `${screen} - ${brand.title}` : brand.title;
}
