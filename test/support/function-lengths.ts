import ts from 'typescript';

/** A function of a source file, measured from its first line to its last (its comment left out). */
export interface FunctionLength {
  readonly line: number;
  readonly name: string;
  readonly lines: number;
}

/** What a function is called: its own name, or the name of what it is assigned to. */
function nameOf(node: ts.FunctionLikeDeclaration, source: ts.SourceFile): string {
  if (ts.isConstructorDeclaration(node)) return 'constructor';
  if (node.name !== undefined) return node.name.getText(source);
  const parent = node.parent;
  if ((ts.isVariableDeclaration(parent) || ts.isPropertyAssignment(parent) || ts.isPropertyDeclaration(parent)) && parent.initializer === node) {
    return parent.name.getText(source);
  }
  return '(anonymous)';
}

/** Every function with a body in `text` (declarations, methods, accessors, arrows, expressions), nested ones too. */
export function functionLengths(fileName: string, text: string): FunctionLength[] {
  const source = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, true);
  const found: FunctionLength[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isFunctionLike(node) && 'body' in node && node.body !== undefined) {
      const first = source.getLineAndCharacterOfPosition(node.getStart(source)).line;
      const last = source.getLineAndCharacterOfPosition(node.getEnd()).line;
      found.push({ line: first + 1, name: nameOf(node as ts.FunctionLikeDeclaration, source), lines: last - first + 1 });
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}
