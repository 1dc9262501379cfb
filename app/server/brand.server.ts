import { selectBrand, type Brand } from "#app/lib/brand";
import { getLogo } from "#app/services/config.server";

/** Brand codes are configurable: BRAND_GOV_CODE and BRAND_MEDICAL_CODE (defaults zwfw, ycyl). */
export function brandFor(request: Request): Brand {
  const host = new URL(request.url).host || request.headers.get("host");
  return selectBrand(host, {
    gov: process.env.BRAND_GOV_CODE ?? "zwfw",
    medical: process.env.BRAND_MEDICAL_CODE ?? "ycyl",
  });
}

/** Logos change rarely; every page shows one, so keep each for five minutes. */
const LOGO_TTL_MS = 5 * 60_000;
const logos = new Map<string, { expires: number; logo: Promise<string | null> }>();

export function logoFor(brand: Brand): Promise<string | null> {
  const hit = logos.get(brand.key);
  if (hit && hit.expires > Date.now()) return hit.logo;
  const logo = getLogo(brand.key);
  // A missing logo is retried soon rather than remembered for five minutes.
  logo.then((value) => {
    if (value === null) logos.delete(brand.key);
  });
  logos.set(brand.key, { expires: Date.now() + LOGO_TTL_MS, logo });
  return logo;
}
