import { describe, expect, it } from "vitest";
import { displayName, splitFullName } from "~/lib/names";

describe("splitFullName", () => {
  it("splits at the first space, spaces collapsed", () => {
    expect(splitFullName("Camille de  Martin")).toEqual({ firstName: "Camille", lastName: "de Martin" });
    expect(splitFullName("  Cher ")).toEqual({ firstName: "Cher", lastName: "" });
    expect(splitFullName(null)).toEqual({ firstName: "", lastName: "" });
  });
});

describe("displayName", () => {
  it("shows the first and last name, else the username, else null", () => {
    expect(displayName({ firstName: "Camille", lastName: "Martin", username: "cmartin" })).toBe("Camille Martin");
    expect(displayName({ firstName: null, lastName: "Martin" })).toBe("Martin");
    expect(displayName({ firstName: "", lastName: null, username: "cmartin" })).toBe("cmartin");
    expect(displayName({ firstName: null, lastName: null })).toBeNull();
  });
});
