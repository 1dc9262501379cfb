import { describe, expect, it } from "vitest";
import { BRANDS, pageTitle, selectBrand } from "./brand";

describe("selectBrand", () => {
  it("is the default cloud customer-service platform for any other host", () => {
    expect(selectBrand("localhost:3000")).toBe(BRANDS.default);
    expect(selectBrand(null)).toBe(BRANDS.default);
  });
  it("selects the government service centre when the host contains zwfw", () => {
    expect(selectBrand("kf.zwfw.example.gov.cn")).toBe(BRANDS.gov);
    expect(selectBrand("ZWFW.localhost:3000")).toBe(BRANDS.gov);
  });
  it("selects the remote medical centre when the host contains ycyl", () => {
    expect(selectBrand("ycyl.hospital.cn")).toBe(BRANDS.medical);
  });
  it("takes its codes from configuration", () => {
    const codes = { gov: "gov-portal", medical: "clinic" };
    expect(selectBrand("gov-portal.cn", codes)).toBe(BRANDS.gov);
    expect(selectBrand("clinic.cn", codes)).toBe(BRANDS.medical);
    expect(selectBrand("zwfw.cn", codes)).toBe(BRANDS.default);
  });
  it("suffixes the page title with the brand name", () => {
    expect(pageTitle("通话历史", BRANDS.gov)).toBe("通话历史 - 政务服务中心");
    expect(pageTitle(undefined, BRANDS.default)).toBe("云客服平台");
  });
});
