import { readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import ts from 'typescript';
import { codeFiles } from './source-files';

/**
 * Exported values (functions, classes, constants, enums: not types) and who imports them, read
 * from the syntax of every source file: an import or re-export by name counts for that name, a
 * namespace import or `import()` of a file counts for all of its names.
 */

export interface ExportedValue {
  /** Repository-relative path, `/`-separated. */
  readonly file: string;
  readonly name: string;
}

const EXTENSIONS = ['', '.ts', '.tsx', '.mts', '.mjs', '/index.ts', '/index.tsx'];

function resolveFile(root: string, from: string, specifier: string, known: ReadonlySet<string>): string | undefined {
  const base = relative(root, resolve(dirname(join(root, from)), specifier)).split('\\').join('/').replace(/\.js$/, '');
  return EXTENSIONS.map((e) => base + e).find((c) => known.has(c));
}

const hasExport = (node: ts.Node) => ts.canHaveModifiers(node) && (ts.getModifiers(node) ?? []).some((m) => m.kind === ts.SyntaxKind.ExportKeyword);

/** The value names a file exports itself (re-exports are the imports of the file they name). */
function exportedValueNames(source: ts.SourceFile): string[] {
  const names: string[] = [];
  for (const statement of source.statements) {
    if (ts.isExportAssignment(statement)) names.push('default');
    else if (ts.isExportDeclaration(statement)) {
      if (statement.moduleSpecifier || statement.isTypeOnly || !statement.exportClause || !ts.isNamedExports(statement.exportClause)) continue;
      for (const e of statement.exportClause.elements) if (!e.isTypeOnly) names.push(e.name.text);
    } else if (!hasExport(statement)) continue;
    else if (ts.isVariableStatement(statement)) {
      for (const d of statement.declarationList.declarations) if (ts.isIdentifier(d.name)) names.push(d.name.text);
    } else if ((ts.isFunctionDeclaration(statement) || ts.isClassDeclaration(statement) || ts.isEnumDeclaration(statement)) && statement.name) {
      names.push(statement.name.text);
    }
  }
  return names;
}

export function exportedValues(root: string, folders: readonly string[]): { exported: ExportedValue[]; imported: Set<string>; wholeFiles: Set<string> } {
  const files = codeFiles(root, folders);
  const known = new Set(files);
  const exported: ExportedValue[] = [];
  /** `file#name` of every name imported by another file. */
  const imported = new Set<string>();
  /** Files imported whole (namespace imports, `import()`). */
  const wholeFiles = new Set<string>();
  for (const file of files) {
    const source = ts.createSourceFile(file, readFileSync(join(root, file), 'utf8'), ts.ScriptTarget.Latest, true);
    for (const name of exportedValueNames(source)) exported.push({ file, name });
    const visit = (node: ts.Node): void => {
      if ((ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) && node.moduleSpecifier && ts.isStringLiteral(node.moduleSpecifier)) {
        const target = resolveFile(root, file, node.moduleSpecifier.text, known);
        if (target) {
          const clause = ts.isImportDeclaration(node) ? node.importClause : undefined;
          const bindings = clause?.namedBindings;
          if (ts.isExportDeclaration(node) && !node.exportClause) wholeFiles.add(target);
          else if (ts.isExportDeclaration(node) && node.exportClause && ts.isNamedExports(node.exportClause)) {
            for (const e of node.exportClause.elements) imported.add(`${target}#${(e.propertyName ?? e.name).text}`);
          } else if (bindings && ts.isNamespaceImport(bindings)) wholeFiles.add(target);
          else {
            if (clause?.name) imported.add(`${target}#default`);
            if (bindings && ts.isNamedImports(bindings)) for (const e of bindings.elements) imported.add(`${target}#${(e.propertyName ?? e.name).text}`);
          }
        }
      } else if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword && node.arguments[0] && ts.isStringLiteral(node.arguments[0])) {
        const target = resolveFile(root, file, node.arguments[0].text, known);
        if (target) wholeFiles.add(target);
      }
      ts.forEachChild(node, visit);
    };
    visit(source);
  }
  return { exported, imported, wholeFiles };
}

/** The exported values of `under` that no file imports, as `file#name`. */
export function unimportedValues(root: string, folders: readonly string[], under: string): string[] {
  const { exported, imported, wholeFiles } = exportedValues(root, folders);
  return exported
    .filter((e) => e.file.startsWith(under) && !wholeFiles.has(e.file) && !imported.has(`${e.file}#${e.name}`))
    .map((e) => `${e.file}#${e.name}`);
}
