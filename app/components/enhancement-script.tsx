import { useNonce } from "#app/lib/nonce";

/**
 * One of the small static scripts that enhance a page working without them (app/client/*.js,
 * imported with `?url`: a hashed name, cached for good), loaded with the page's nonce after the
 * markup it binds. Their weights are ENHANCEMENT_BUDGETS in bench/config.mjs.
 */
export function EnhancementScript({ src }: { src: string }) {
  return <script nonce={useNonce()} src={src} defer />;
}
