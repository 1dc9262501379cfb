import { describe, expect, it } from "vitest";
import { renderToStaticMarkup } from "react-dom/server";
import { createMemoryRouter, RouterProvider } from "react-router-dom";
import { ErrorPage, describeError, NOT_FOUND_TEXT, BACK_HOME_TEXT } from "./error-boundary";
import { errorPageFailureHtml, ERROR_PAGE_FAILURE_TEXT } from "./error-page-failure";

class FakeErrorResponse {
  constructor(
    public status: number,
    public statusText: string,
    public data: unknown,
    public internal = false,
  ) {}
}

describe("describeError (spec §8)", () => {
  it("defaults to 500 and 'Error'", () => {
    expect(describeError(undefined)).toEqual({ status: 500, message: "Error" });
    expect(describeError(new Error(""))).toEqual({ status: 500, message: "Error" });
  });
  it("keeps the message and status of an error response", () => {
    expect(describeError(new FakeErrorResponse(502, "Bad Gateway", { message: "获取菜单失败：平台服务异常，请稍后重试" }))).toEqual({
      status: 502,
      message: "获取菜单失败：平台服务异常，请稍后重试",
    });
  });
});

function render(element: React.ReactElement) {
  const router = createMemoryRouter([{ path: "/", element }]);
  return renderToStaticMarkup(<RouterProvider router={router} />);
}

describe("error pages", () => {
  it("the 404 page says the page could not be found and links home", () => {
    const html = render(<ErrorPage status={404} message="x" />);
    expect(html).toContain(NOT_FOUND_TEXT);
    expect(html).toContain(`href="/"`);
    expect(html).toContain(BACK_HOME_TEXT);
  });
  it("other errors show their message and status", () => {
    const html = render(<ErrorPage status={504} message="获取通话记录失败：平台响应超时，请稍后重试" />);
    expect(html).toContain("504");
    expect(html).toContain("获取通话记录失败：平台响应超时，请稍后重试");
  });
  it("a failing error page falls back to a page that names the failure, never its stack", () => {
    const failure = new Error("boom");
    const html = errorPageFailureHtml(failure);
    expect(html).toContain(ERROR_PAGE_FAILURE_TEXT);
    expect(html).toContain("boom");
    expect(html).toContain('<a href="/">Go back to home</a>');
    expect(html).not.toContain("at ");
  });
});
