import { request as httpRequest } from "node:http";
import { expect, test } from "@playwright/test";
import { menuNames, signIn, signOut } from "./support";

// Menus by role: what each demo account must and must not see.
const ROLES = [
  {
    user: "agent",
    name: "坐席",
    sees: ["语音工作台", "通话历史", "我的任务", "呼入历史", "预览外呼", "人机协同", "我的业绩", "我的工单"],
    hidden: ["文本工作台", "外呼通话记录", "坐席监控", "外呼活动管理"],
  },
  {
    user: "chat",
    name: "文本坐席",
    sees: ["文本工作台", "文本会话记录", "文本业务记录", "我的业绩"],
    hidden: ["语音工作台", "通话历史", "坐席监控"],
  },
  {
    user: "supervisor",
    name: "主管",
    sees: ["坐席监控", "质检结果", "质检接入", "外呼通话记录", "通话历史", "呼入历史", "文本会话记录", "数据分配", "工单记录"],
    hidden: ["语音工作台", "文本工作台", "外呼活动管理", "工单模板", "质检评分表"],
  },
  {
    user: "admin",
    name: "管理员",
    sees: ["语音工作台", "外呼活动管理", "知识库配置", "坐席监控", "通话历史", "工单记录", "工单模板", "质检评分表"],
    hidden: ["文本工作台"],
  },
];

test.describe("sign-in and menus @noscript", () => {
  for (const role of ROLES) {
    test(`${role.user} signs in, sees the ${role.name} menu and signs out`, async ({ page }) => {
      await page.goto("/");
      await expect(page).toHaveURL(/\/user\/login$/);
      await signIn(page, role.user);
      await expect(page).toHaveURL(/\/$/);
      await expect(page.getByRole("heading", { level: 1 })).toContainText("您好");
      const names = await menuNames(page);
      for (const name of role.sees) expect(names, `${role.user} should see ${name}`).toContain(name);
      for (const name of role.hidden) expect(names, `${role.user} should not see ${name}`).not.toContain(name);
      await signOut(page);
      await page.goto("/");
      await expect(page).toHaveURL(/\/user\/login$/);
    });
  }

  test("a copy of the session cookie shows nothing readable and opens nothing after sign-out", async ({ page, request }) => {
    await page.goto("/user/login");
    await signIn(page, "agent");
    const session = (await page.context().cookies()).find((cookie) => cookie.name === "sb_session");
    expect(session?.httpOnly).toBe(true);
    const payload = Buffer.from(decodeURIComponent(session!.value).split(".")[0], "base64").toString("utf8");
    expect(payload).not.toMatch(/token|agent|tenant/i);
    const copied = { Cookie: `sb_session=${session!.value}` };
    const signedInPage = await request.get("/callHistory", { headers: copied, maxRedirects: 0 });
    expect(signedInPage.status()).toBe(200);
    expect(signedInPage.headers()["cache-control"]).toContain("no-store");
    await signOut(page);
    const afterwards = await request.get("/callHistory", { headers: copied, maxRedirects: 0 });
    expect(afterwards.status()).toBe(302);
    expect(afterwards.headers().location).toMatch(/^\/user\/login/);
  });

  test("a wrong password keeps the username and says what is wrong", async ({ page }) => {
    await signIn(page, "supervisor", "not-the-password");
    await expect(page.getByRole("alert")).toHaveText("用户名或密码错误");
    await expect(page.getByLabel("用户名")).toHaveValue("supervisor");
    await expect(page.getByLabel("密码", { exact: true })).toHaveValue("");
  });

  test("empty fields are answered in Chinese", async ({ page }) => {
    await page.goto("/user/login");
    // Spaces pass the browser's own "required" check; the server trims them and answers.
    await page.getByLabel("用户名").fill("   ");
    await page.getByLabel("密码", { exact: true }).fill("x");
    await page.getByRole("button", { name: "登录" }).click();
    await expect(page.getByText("请输入用户名")).toBeVisible();
  });

  test("after sign-in the user lands on the page they asked for", async ({ page }) => {
    await page.goto("/callHistory?page=2");
    await expect(page).toHaveURL(/\/user\/login\?redirectTo=%2FcallHistory%3Fpage%3D2$/);
    await signIn(page, "agent");
    await expect(page).toHaveURL(/\/callHistory\?page=2$/);
    await expect(page.getByRole("heading", { level: 1, name: "通话历史" })).toBeVisible();
    await expect(page.locator('nav a[aria-current="page"]')).toHaveText("通话历史");
  });

  test("a redirect to another site is refused", async ({ page }) => {
    await page.goto("/user/login?redirectTo=//evil.example.com/");
    await signIn(page, "agent");
    await expect(page).toHaveURL(/localhost:\d+\/$/);
  });

  test("an unentitled screen answers 403 with the 403 page", async ({ page }) => {
    await signIn(page, "agent");
    await expect(page).toHaveURL(/\/$/);
    const response = await page.goto("/callLog");
    expect(response?.status()).toBe(403);
    await expect(page.getByRole("heading", { name: "无权访问该页面" })).toBeVisible();
    await expect(page.getByText("403")).toBeVisible();
  });

  test("an unknown path answers 404 with a way home", async ({ page }) => {
    const response = await page.goto("/no/such/page");
    expect(response?.status()).toBe(404);
    await expect(page.getByRole("heading", { name: "This page could not be found" })).toBeVisible();
    await page.getByRole("link", { name: "Back to the home page" }).click();
    await expect(page).toHaveURL(/\/user\/login$/);
  });

  test("the error pages are public", async ({ page }) => {
    await page.goto("/error/403");
    await expect(page.getByRole("heading", { name: "无权访问该页面" })).toBeVisible();
    await page.goto("/error/404");
    await expect(page.getByRole("heading", { name: "This page could not be found" })).toBeVisible();
    await expect(page.getByRole("link", { name: "Back to the home page" })).toHaveAttribute("href", "/");
  });

  test("the sidebar state is remembered between visits", async ({ page }) => {
    await signIn(page, "agent");
    await expect(page.locator("#sb-sidebar")).toBeVisible();
    await page.getByRole("button", { name: "收起菜单" }).click();
    await expect(page.locator("#sb-sidebar")).toBeHidden();
    await page.goto("/callHistory");
    await expect(page.locator("#sb-sidebar")).toBeHidden();
    await page.getByRole("button", { name: "展开菜单" }).click();
    await expect(page.locator("#sb-sidebar")).toBeVisible();
    await expect(page).toHaveURL(/\/callHistory$/);
  });
});

test.describe("brands and the sign-in page @noscript", () => {
  test("the default brand is the cloud customer-service platform", async ({ page }) => {
    await page.goto("/user/login");
    await expect(page).toHaveTitle("登录 - 云客服平台");
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("云客服平台");
    await expect(page.locator(".sb-login-brand img")).toHaveAttribute("src", /^data:image\/svg\+xml/);
  });

  for (const [host, title] of [
    ["zwfw", "政务服务中心"],
    ["ycyl", "远程医疗中心"],
  ]) {
    test(`a host containing ${host} shows the ${title} brand, after sign-in too`, async ({ page, baseURL }) => {
      const url = new URL(baseURL!);
      url.hostname = `${host}.localhost`;
      await page.goto(new URL("/user/login", url).toString());
      await expect(page).toHaveTitle(`登录 - ${title}`);
      await expect(page.getByRole("heading", { level: 1 })).toHaveText(title);
      await signIn(page, "agent");
      await expect(page).toHaveTitle(`首页 - ${title}`);
      await expect(page.locator(".sb-brand")).toContainText(title);
    });
  }

  test("the sign-in page carries no script element", async ({ page }) => {
    await page.goto("/user/login");
    expect(await page.locator("script").count()).toBe(0);
  });
});

test("every page carries the security headers", async ({ request }) => {
  const response = await request.get("/user/login");
  const headers = response.headers();
  const csp = headers["content-security-policy"];
  expect(csp).toMatch(/script-src 'self' 'nonce-[A-Za-z0-9+/=]{16,}'/);
  expect(csp).toContain("object-src 'none'");
  expect(csp).toContain("base-uri 'none'");
  expect(csp).toContain("frame-ancestors 'none'");
  expect(headers["x-content-type-options"]).toBe("nosniff");
  expect(headers["referrer-policy"]).toBe("strict-origin-when-cross-origin");
  expect(headers["strict-transport-security"]).toContain("max-age=");
  const again = (await request.get("/user/login")).headers()["content-security-policy"];
  expect(again).not.toBe(csp);
  const cookies = response
    .headersArray()
    .filter((h) => h.name.toLowerCase() === "set-cookie")
    .map((h) => h.value);
  expect(cookies.some((c) => /HttpOnly/i.test(c) && /SameSite=Lax/i.test(c))).toBe(true);
});

test("pages and files go compressed to browsers that accept it; fingerprinted files are kept for good", async ({ request }) => {
  const page = await request.get("/user/login", { headers: { "Accept-Encoding": "gzip" } });
  expect(page.headers()["content-encoding"]).toBe("gzip");
  const stylesheet = (await page.text()).match(/href="(\/assets\/[^"]+\.css)"/)?.[1];
  expect(stylesheet, "the sign-in page links its stylesheet").toBeTruthy();
  const file = await request.get(stylesheet!, { headers: { "Accept-Encoding": "gzip" } });
  expect(file.status()).toBe(200);
  expect(file.headers()["content-encoding"]).toBe("gzip");
  expect(file.headers()["cache-control"]).toContain("immutable");
  expect(file.headers()["x-content-type-options"]).toBe("nosniff");
  expect((await request.get("/assets/no-such-file.js")).status()).toBe(404);
});

test("a request whose Host no address can be made of is answered 400, not 500", async ({ baseURL }) => {
  const { hostname, port } = new URL(baseURL!);
  const status = await new Promise<number | undefined>((resolve, reject) => {
    const sent = httpRequest({ hostname, port, path: "/user/login", headers: { Host: "no such host" } }, (response) => {
      response.resume();
      resolve(response.statusCode);
    });
    sent.on("error", reject);
    sent.end();
  });
  expect(status).toBe(400);
});

test("a sign-in posted without its CSRF token is refused and the form is shown again", async ({ request }) => {
  const response = await request.post("/user/login", { form: { username: "agent", password: "Switchboard@2026" }, maxRedirects: 0 });
  expect(response.status()).toBe(403);
  const html = await response.text();
  expect(html).toContain("页面已过期");
  expect(html).toContain('value="agent"');
  expect(response.headers()["set-cookie"] ?? "").not.toContain("sb_session");
});

test("a tampered anti-robot field is a 400, every time, never a 500", async ({ request }) => {
  for (let i = 0; i < 12; i++) {
    const page = await request.get("/user/login");
    const html = await page.text();
    const form: Record<string, string> = {};
    for (const tag of html.match(/<input\b[^>]*>/g) ?? []) {
      const name = /\sname="([^"]*)"/.exec(tag)?.[1];
      if (name) form[name] = (/\svalue="([^"]*)"/.exec(tag)?.[1] ?? "").replace(/&amp;/g, "&");
    }
    // from__confirm carries the encrypted time the form was made; name__confirm is the honeypot itself.
    expect(form).toHaveProperty("from__confirm");
    const response = await request.post("/user/login", {
      form: { ...form, from__confirm: `tampered-${i}-${"x".repeat(i)}`, username: "agent", password: "Switchboard@2026" },
      maxRedirects: 0,
    });
    expect(response.status(), `post ${i}`).toBe(400);
  }
});

test("the error pages answer the status they show", async ({ request }) => {
  expect((await request.get("/error/404")).status()).toBe(404);
  expect((await request.get("/error/403")).status()).toBe(403);
});

test("the softphone SDK is served from /cti under hashed names, kept for good", async ({ page }) => {
  await page.goto("/user/login");
  await signIn(page, "agent");
  const html = await (await page.request.get("/workBench")).text();
  const files = [...html.matchAll(/(?:src|href)="(\/cti\/[^"]+)"/g)].map((m) => m[1]);
  expect(files.filter((f) => /\/cti\/softphone(-keys|-tones)?-[\w-]{6,}\.js$/.test(f))).toHaveLength(3);
  expect(files.filter((f) => /\/cti\/phonebar-[\w-]{6,}\.css$/.test(f))).toHaveLength(1);
  for (const file of files) {
    const response = await page.request.get(file);
    expect(response.status(), file).toBe(200);
    expect(response.headers()["cache-control"], file).toContain("immutable");
  }
});

test("an oversized post is a 413 with a Chinese message, declared or streamed, and the console goes on", async ({ request, baseURL }) => {
  const big = "x".repeat(2 * 1024 * 1024);
  const declared = await request.post("/user/login", { headers: { Accept: "text/html" }, form: { username: "agent", password: big } });
  expect(declared.status()).toBe(413);
  expect(await declared.text()).toContain("提交的内容过大");
  const upload = await request.post("/campaign/1", {
    headers: { Accept: "application/json" },
    multipart: { file: { name: "名单.csv", mimeType: "text/csv", buffer: Buffer.alloc(22 * 1024 * 1024, 0x31) } },
  });
  expect(upload.status()).toBe(413);
  expect((await upload.json()).message).toContain("不能超过 20MB");

  // Sent in chunks without a length: read until it passes the limit, then refused.
  const { hostname, port } = new URL(baseURL!);
  const streamed = await new Promise<number | undefined>((resolve, reject) => {
    const sent = httpRequest(
      {
        hostname,
        port,
        path: "/user/login",
        method: "POST",
        headers: { "Content-Type": "application/x-www-form-urlencoded", "Transfer-Encoding": "chunked" },
      },
      (response) => {
        response.resume();
        resolve(response.statusCode);
      },
    );
    sent.on("error", reject);
    const chunk = "a".repeat(64 * 1024);
    for (let i = 0; i < 24; i++) sent.write(chunk);
    sent.end();
  });
  expect(streamed).toBe(413);
  expect((await request.get("/user/login")).status()).toBe(200);
});

test("an action posted as JSON, empty, or from another site is refused in Chinese, never a 500", async ({ page }) => {
  await page.goto("/user/login");
  await signIn(page, "agent");
  const asJson = await page.request.post("/user/preferences", { data: { sidebar: "closed" }, maxRedirects: 0 });
  expect(asJson.status()).toBe(400);
  expect(await asJson.text()).toContain("请求格式不正确");
  const empty = await page.request.post("/user/preferences", {
    headers: { "Content-Type": "application/x-www-form-urlencoded" },
    maxRedirects: 0,
  });
  expect(empty.status()).toBe(403);
  const foreign = await page.request.post("/user/preferences", {
    headers: { Origin: "https://evil.example" },
    form: { sidebar: "closed" },
    maxRedirects: 0,
  });
  expect(foreign.status()).toBe(403);
  expect(await foreign.text()).toContain("不接受来自其他网站的提交");
  for (const redirectTo of ["/callHistory\n", "/callHistory\u3000", "/\u0000x"]) {
    const login = await page.request.get(`/user/login?redirectTo=${encodeURIComponent(redirectTo)}`, { maxRedirects: 0 });
    expect(login.status(), JSON.stringify(redirectTo)).toBeLessThan(500);
  }
});
