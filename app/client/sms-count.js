// Progressive enhancement of the SMS template form (loaded as a file with the page's nonce, no
// framework): the character and segment count follows the typing in an element marked
// `data-sms-count`. The rules are contracts/sms.ts's (code points, 【signature】 counted, 70 for one
// message, 67 a part when split); the server's count (计算字数, and on saving) stays the authority.
// Without JavaScript the element stays hidden and the button counts.
(() => {
  const SINGLE = 70;
  const PART = 67;

  function bind() {
    const out = document.querySelector("[data-sms-count]");
    const form = out && out.closest("form");
    if (!out || !form) return;
    const content = form.querySelector("textarea[name=content]");
    const signature = form.querySelector("input[name=signature]");
    if (!content || !signature) return;
    const update = () => {
      const sign = signature.value.trim();
      const length = [...`${sign ? `【${sign}】` : ""}${content.value.trim()}`].length;
      const segments = length === 0 ? 0 : length <= SINGLE ? 1 : Math.ceil(length / PART);
      out.textContent = `输入中：共 ${length} 字（含签名），按 ${segments} 条计费`;
    };
    content.addEventListener("input", update);
    signature.addEventListener("input", update);
    out.hidden = false;
    update();
  }

  bind();
})();
