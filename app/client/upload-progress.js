// Progressive enhancement for file upload forms marked `data-upload-progress` (loaded as a file
// with the page's nonce, no framework): with JavaScript the form posts through XMLHttpRequest so
// its <progress> shows how much was sent, then the answer's body replaces the page's, as the plain
// post would have. The answer is parsed as a document, so none of its scripts run (their nonce is
// not this page's); this script binds the new forms itself. Without JavaScript the form posts normally.
(() => {
  function enhance() {
    for (const form of document.querySelectorAll("form[data-upload-progress]")) form.addEventListener("submit", upload);
  }

  /** @param {SubmitEvent} event */
  function upload(event) {
    const form = /** @type {HTMLFormElement} */ (event.currentTarget);
    const bar = form.querySelector("progress");
    if (!bar || !window.XMLHttpRequest || !window.FormData) return;
    event.preventDefault();
    bar.hidden = false;
    const xhr = new XMLHttpRequest();
    xhr.open("POST", form.action || location.href);
    xhr.responseType = "document";
    // The console answers a refused upload (413) with a page too when the browser asks for one.
    xhr.setRequestHeader("Accept", "text/html");
    xhr.upload.onprogress = (e) => {
      if (e.lengthComputable) bar.value = Math.round((e.loaded / e.total) * 100);
    };
    xhr.onload = () => {
      const answer = xhr.response;
      if (!answer || !answer.body) {
        location.assign(xhr.responseURL || location.href);
        return;
      }
      history.replaceState(null, "", xhr.responseURL || location.href);
      document.title = answer.title;
      document.body.replaceWith(document.adoptNode(answer.body));
      enhance();
    };
    xhr.onerror = () => {
      bar.hidden = true;
      form.submit();
    };
    xhr.send(new FormData(form));
  }

  enhance();
})();
