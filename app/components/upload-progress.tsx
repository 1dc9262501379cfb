import { useNonce } from "#app/lib/nonce";

/**
 * Progressive enhancement for file upload forms marked `data-upload-progress`: with JavaScript,
 * the form posts through XMLHttpRequest and its <progress> shows how much was sent, then the
 * answer replaces the page exactly as the plain form post would. Without JavaScript the form
 * posts normally. No framework code ships for it: one small inline script with the CSP nonce.
 */
const SCRIPT = `(() => {
  for (const form of document.querySelectorAll("form[data-upload-progress]")) {
    form.addEventListener("submit", (event) => {
      const bar = form.querySelector("progress");
      if (!bar || !window.XMLHttpRequest) return;
      event.preventDefault();
      bar.hidden = false;
      const xhr = new XMLHttpRequest();
      xhr.open("POST", form.action || location.href);
      xhr.upload.onprogress = (e) => { if (e.lengthComputable) bar.value = Math.round((e.loaded / e.total) * 100); };
      xhr.onload = () => {
        history.replaceState(null, "", xhr.responseURL);
        document.open();
        document.write(xhr.responseText);
        document.close();
      };
      xhr.onerror = () => { bar.hidden = true; form.submit(); };
      xhr.send(new FormData(form));
    });
  }
})();`;

export function UploadProgressScript() {
  return <script nonce={useNonce()} dangerouslySetInnerHTML={{ __html: SCRIPT }} />;
}
