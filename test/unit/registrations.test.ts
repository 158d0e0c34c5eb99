/**
 * Each domain's entities.ts and errors.ts register their entities and error texts when imported
 * (db/registry.ts, registerErrors in errors.ts), so a Lambda carries only those of the domains its
 * routes import. The local runtime and the tests import every domain; a Lambda does not. So a
 * module that reads an entity or names an error code of a domain it does not import would work
 * locally and fail only on AWS. This test finds that without AWS: with TypeScript's checker, every
 * use of an entity (`db().entities.x`, a transaction's `tx.x`, a destructured `{ x }`) and every
 * error code a module names must come with an import (not type-only) of the entities.ts or
 * errors.ts that declares it. test/stacks/bundles.test.ts checks that the bundles keep those imports.
 */
import { readFileSync, readdirSync, statSync } from "node:fs";
import { join, relative, resolve } from "node:path";
import ts from "typescript";
import { beforeAll, describe, expect, it } from "vitest";

const ROOT = resolve(import.meta.dirname, "../..");
const CORE = join(ROOT, "packages/core/src");
/** The modules that may use entities and name codes: the core and the Lambda handlers and workers. */
const SCANNED = [CORE, join(ROOT, "functions")];

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sources(path);
    return path.endsWith(".ts") && !path.endsWith(".test.ts") ? [path] : [];
  });
}

/** "packages/core/src/group/entities.ts" → the file, when it is a domain's registering module of that kind. */
const registering = (file: string, kind: "entities" | "errors") => new RegExp(`^${CORE}/[^/]+/${kind}\\.ts$`).test(file);

/** The object literal a domain hands to registerEntities or registerErrors. */
function registeredLiteral(node: ts.Node): node is ts.ObjectLiteralExpression {
  let literal: ts.Node = node;
  let call = node.parent;
  while (call && (ts.isAsExpression(call) || ts.isSatisfiesExpression(call) || ts.isParenthesizedExpression(call))) {
    literal = call;
    call = call.parent;
  }
  return (
    ts.isObjectLiteralExpression(node) &&
    !!call &&
    ts.isCallExpression(call) &&
    call.arguments[0] === literal &&
    ts.isIdentifier(call.expression) &&
    ["registerEntities", "registerErrors"].includes(call.expression.text)
  );
}

interface Finding {
  file: string;
  /** "entity user" or "code pickup_not_found". */
  what: string;
  /** The registering module it needs (relative to the repository). */
  needs: string;
}

let findings: Finding[];
/** Every use found, satisfied or not, by kind: the check must keep seeing them. */
const uses = { entity: 0, code: 0 };
let scanned: number;

beforeAll(() => {
  const files = SCANNED.flatMap(sources);
  const parsed = ts.getParsedCommandLineOfConfigFile(join(ROOT, "tsconfig.json"), {}, { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => {} })!;
  const program = ts.createProgram(files, parsed.options);
  const checker = program.getTypeChecker();

  // Every error code of a domain → its errors.ts (the common codes of errors.ts are always there).
  const codeOwners = new Map<string, string>();
  for (const file of files.filter((f) => registering(f, "errors"))) {
    const visit = (node: ts.Node) => {
      if (registeredLiteral(node)) for (const property of node.properties) if (property.name && ts.isIdentifier(property.name)) codeOwners.set(property.name.text, file);
      ts.forEachChild(node, visit);
    };
    visit(program.getSourceFile(file)!);
  }
  expect(codeOwners.size, "the domains' codes").toBeGreaterThan(100);

  /** The entities.ts whose registered map declares `symbol`, if it is an entity of the table. */
  const entityOwner = (symbol: ts.Symbol | undefined) =>
    symbol?.declarations?.find((d) => ts.isPropertyAssignment(d) && registering(d.getSourceFile().fileName, "entities") && registeredLiteral(d.parent))?.getSourceFile()
      .fileName;

  findings = [];
  for (const file of files) {
    const source = program.getSourceFile(file)!;
    // The modules this file imports for their values (an `import type` brings no registration).
    const imported = new Set<string>();
    for (const statement of source.statements) {
      if (!ts.isImportDeclaration(statement) && !ts.isExportDeclaration(statement)) continue;
      const clause = ts.isImportDeclaration(statement) ? statement.importClause : undefined;
      const typeOnly = ts.isImportDeclaration(statement)
        ? !!clause && (clause.isTypeOnly || (!clause.name && !!clause.namedBindings && ts.isNamedImports(clause.namedBindings) && clause.namedBindings.elements.length > 0 && clause.namedBindings.elements.every((e) => e.isTypeOnly)))
        : statement.isTypeOnly;
      if (typeOnly || !statement.moduleSpecifier || !ts.isStringLiteral(statement.moduleSpecifier)) continue;
      const resolved = ts.resolveModuleName(statement.moduleSpecifier.text, file, parsed.options, ts.sys).resolvedModule?.resolvedFileName;
      if (resolved) imported.add(resolve(resolved));
    }
    const need = (what: string, owner: string) => {
      uses[what.startsWith("entity") ? "entity" : "code"]++;
      if (owner !== file && !imported.has(owner)) findings.push({ file: relative(ROOT, file), what, needs: relative(ROOT, owner) });
    };
    const visit = (node: ts.Node) => {
      if (ts.isPropertyAccessExpression(node)) {
        const owner = entityOwner(checker.getSymbolAtLocation(node.name));
        if (owner) need(`entity ${node.name.text}`, owner);
      } else if (ts.isBindingElement(node) && ts.isObjectBindingPattern(node.parent)) {
        const name = node.propertyName ?? node.name;
        if (ts.isIdentifier(name)) {
          const owner = entityOwner(checker.getTypeAtLocation(node.parent).getProperty(name.text));
          if (owner) need(`entity ${name.text}`, owner);
        }
      } else if ((ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) && codeOwners.has(node.text)) {
        if (!ts.isImportDeclaration(node.parent) && !ts.isExportDeclaration(node.parent)) need(`code ${node.text}`, codeOwners.get(node.text)!);
      }
      ts.forEachChild(node, visit);
    };
    visit(source);
  }
  scanned = files.length;
}, 120_000);

describe("each module imports the registrations it uses", () => {
  it("reads only entities whose entities.ts it imports, and names only codes whose errors.ts it imports", () => {
    expect(scanned).toBeGreaterThan(100);
    const lines = [...new Set(findings.map((f) => `${f.file}: ${f.what} needs import "${f.needs}"`))];
    expect(lines, "add the import (a bare `import \"../<domain>/entities\";` will do)").toEqual([]);
  });

  it("sees the uses (a checker that resolves nothing would pass vacuously)", () => {
    expect(uses.entity, "entity uses found").toBeGreaterThan(200);
    expect(uses.code, "code uses found").toBeGreaterThan(200);
  });

  it("registers every domain in domains.ts, which the local runtime and the tests import", () => {
    const registeringModules = sources(CORE)
      .filter((file) => registering(file, "entities") || registering(file, "errors"))
      .map((file) => `./${relative(CORE, file).replace(/\.ts$/, "")}`)
      .sort();
    const listed = [...readFileSync(join(CORE, "domains.ts"), "utf8").matchAll(/^import "([^"]+)";$/gm)].map((m) => m[1]).sort();
    expect(listed).toEqual(registeringModules);
  });
});
