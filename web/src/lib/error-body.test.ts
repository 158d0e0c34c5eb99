import { describe, expect, it } from "vitest";
import { networkFailure, readErrorBody } from "./error-body";

describe("readErrorBody", () => {
  it("reads the API's code, message and field errors", async () => {
    const body = { code: "validation", message: "Bad input", fields: { title: ["Too long"] } };
    expect(await readErrorBody(new Response(JSON.stringify(body), { status: 400, statusText: "Bad Request" }))).toEqual({ status: 400, ...body });
  });

  it("leaves the status to speak when the body is not the API's JSON", async () => {
    const page = new Response("<html>Bad gateway</html>", { status: 502, statusText: "Bad Gateway" });
    expect(await readErrorBody(page)).toEqual({ status: 502, code: "http_502", message: "Bad Gateway", fields: {} });
  });

  it("drops a code, message or fields of the wrong shape", async () => {
    const odd = { code: 7, message: ["x"], fields: { title: "not a list" } };
    expect(await readErrorBody(new Response(JSON.stringify(odd), { status: 409, statusText: "Conflict" }))).toEqual({ status: 409, code: "http_409", message: "Conflict", fields: {} });
    expect(await readErrorBody(new Response("null", { status: 404, statusText: "Not Found" }))).toMatchObject({ code: "http_404", message: "Not Found" });
  });
});

describe("networkFailure", () => {
  it("is status 0 with the error's message", () => {
    expect(networkFailure(new TypeError("Failed to fetch"))).toEqual({ status: 0, code: "network", message: "Failed to fetch", fields: {} });
    expect(networkFailure("odd")).toMatchObject({ status: 0, message: "Network error" });
  });
});
