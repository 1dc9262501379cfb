import smsCount from "#app/client/sms-count.js?url";
import { useNonce } from "#app/lib/nonce";

/**
 * The live count of the SMS template form (app/client/sms-count.js): a small static script with a
 * hashed name, loaded with the page's nonce, after the form it binds.
 */
export function SmsCountScript() {
  return <script nonce={useNonce()} src={smsCount} defer />;
}
