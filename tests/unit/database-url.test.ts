import { mkdtempSync, readdirSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { ConfigError, readConfig } from "~/config.server";
import { DatabaseUrlError, parseDatabaseUrl, redactDatabaseUrl } from "~/db/database-url";

function refusal(value: string) {
  try {
    parseDatabaseUrl(value);
  } catch (error) {
    expect(error).toBeInstanceOf(DatabaseUrlError);
    return (error as Error).message;
  }
  throw new Error(`${value} was accepted`);
}

describe("DATABASE_URL", () => {
  it("reads a path, a file: URL or :memory: as a SQLite file", () => {
    expect(parseDatabaseUrl("./data/shop.db")).toEqual({ dialect: "sqlite", path: "./data/shop.db" });
    expect(parseDatabaseUrl("/var/lib/boutique/shop.db")).toEqual({ dialect: "sqlite", path: "/var/lib/boutique/shop.db" });
    expect(parseDatabaseUrl("shop.db")).toEqual({ dialect: "sqlite", path: "shop.db" });
    expect(parseDatabaseUrl(":memory:")).toEqual({ dialect: "sqlite", path: ":memory:" });
    expect(parseDatabaseUrl("file:./data/shop.db")).toEqual({ dialect: "sqlite", path: "./data/shop.db" });
    expect(parseDatabaseUrl("FILE:data/shop.db")).toEqual({ dialect: "sqlite", path: "data/shop.db" });
    expect(parseDatabaseUrl("file:///var/lib/ma%20boutique/shop.db")).toEqual({
      dialect: "sqlite",
      path: "/var/lib/ma boutique/shop.db",
    });
    expect(parseDatabaseUrl("C:\\boutique\\shop.db")).toEqual({ dialect: "sqlite", path: "C:\\boutique\\shop.db" });
  });

  it("reads postgres:// and postgresql:// as a PostgreSQL database", () => {
    const url = "postgres://boutique:secret@db.example.fr:5432/boutique?sslmode=require";
    expect(parseDatabaseUrl(url)).toEqual({ dialect: "postgresql", url });
    expect(parseDatabaseUrl("postgresql://localhost/boutique")).toEqual({
      dialect: "postgresql",
      url: "postgresql://localhost/boutique",
    });
    expect(parseDatabaseUrl("PostgreSQL://localhost/boutique").dialect).toBe("postgresql");
  });

  it("refuses any other scheme, naming the accepted forms", () => {
    for (const value of [
      "mysql://root@localhost/shop",
      "postgress://localhost/shop",
      "http://example.fr/shop.db",
      "sqlite://shop.db",
    ]) {
      const message = refusal(value);
      expect(message).toContain(`« ${value.split(":")[0].toLowerCase()}: »`);
      expect(message).toContain("postgres://");
      expect(message).toContain("file:");
      expect(message).toContain("./data/shop.db");
    }
    expect(refusal("")).toContain("vide");
    expect(refusal("file:")).toContain("aucun fichier");
    expect(refusal("postgres://[bad")).toContain("URL PostgreSQL valide");
  });

  it("names a PostgreSQL database without its password", () => {
    expect(redactDatabaseUrl("postgres://boutique:secret@db.example.fr/boutique")).toBe(
      "postgres://boutique:***@db.example.fr/boutique",
    );
    expect(redactDatabaseUrl("postgres://db.example.fr/boutique")).toBe("postgres://db.example.fr/boutique");
  });
});

describe("the configuration's database", () => {
  it("stops at an unknown scheme before making any folder", () => {
    const cwd = process.cwd();
    const dir = mkdtempSync(path.join(os.tmpdir(), "shop-url-"));
    process.chdir(dir);
    try {
      expect(() => readConfig({ DATABASE_URL: "postgress://localhost/boutique" })).toThrow(ConfigError);
      expect(readdirSync(dir)).toEqual([]);
    } finally {
      process.chdir(cwd);
    }
  });

  it("keeps a PostgreSQL URL without making a folder named after it", () => {
    const cwd = process.cwd();
    const dir = mkdtempSync(path.join(os.tmpdir(), "shop-url-"));
    process.chdir(dir);
    try {
      const config = readConfig({ DATABASE_URL: "postgres://localhost/boutique" });
      expect(config.database).toEqual({ dialect: "postgresql", url: "postgres://localhost/boutique" });
      expect(readdirSync(dir)).toEqual(["data"]);
    } finally {
      process.chdir(cwd);
    }
  });

  it("resolves a SQLite path", () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), "shop-url-"));
    const config = readConfig({ DATABASE_URL: `file:${dir}/shop.db` });
    expect(config.database).toEqual({ dialect: "sqlite", path: `${dir}/shop.db` });
    expect(config.databasePath).toBe(`${dir}/shop.db`);
  });
});
