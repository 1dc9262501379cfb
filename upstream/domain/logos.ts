import type { BrandKey } from "#contracts/config";

/**
 * One simple mark per brand (spec: cloud customer service, government service centre, remote
 * medical centre). Shapes only, no text, so they render the same without any font. Served as
 * data URIs so the browser never has to reach the platform for them.
 */
const svgs: Record<BrandKey, string> = {
  // A headset over a cloud-blue tile.
  default:
    '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64" width="64" height="64">' +
    '<rect width="64" height="64" rx="14" fill="#2563eb"/>' +
    '<path d="M16 36v-6a16 16 0 0 1 32 0v6" fill="none" stroke="#fff" stroke-width="5" stroke-linecap="round"/>' +
    '<rect x="12" y="34" width="10" height="14" rx="4" fill="#fff"/>' +
    '<rect x="42" y="34" width="10" height="14" rx="4" fill="#fff"/>' +
    "</svg>",
  // A five-pointed star on a red shield.
  gov:
    '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64" width="64" height="64">' +
    '<path d="M32 4l24 8v18c0 15-10 25-24 30C18 55 8 45 8 30V12z" fill="#c8102e"/>' +
    '<path d="M32 16l4.1 8.9 9.7 1.1-7.2 6.6 2 9.6L32 37.4l-8.6 4.8 2-9.6-7.2-6.6 9.7-1.1z" fill="#ffd200"/>' +
    "</svg>",
  // A white cross on a green disc.
  medical:
    '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64" width="64" height="64">' +
    '<circle cx="32" cy="32" r="30" fill="#059669"/>' +
    '<path d="M26 14h12v12h12v12H38v12H26V38H14V26h12z" fill="#fff"/>' +
    "</svg>",
};

export function brandLogo(brand: BrandKey): string {
  return `data:image/svg+xml;base64,${Buffer.from(svgs[brand], "utf8").toString("base64")}`;
}
