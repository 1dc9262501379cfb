import uploadProgress from "#app/client/upload-progress.js?url";
import { useNonce } from "#app/lib/nonce";

/**
 * The upload progress of forms marked `data-upload-progress` (app/client/upload-progress.js): a
 * small static script with a hashed name, loaded with the page's nonce, after the forms it binds.
 */
export function UploadProgressScript() {
  return <script nonce={useNonce()} src={uploadProgress} defer />;
}
