/**
 * Lint rules for code that does nothing while looking as if it did: a conditional whose two branches
 * are the same, and a `replace` that puts back the text it takes out. No published rule of the
 * project's ESLint plugins catches them; each compares source text, so no type information is needed.
 */

/** The source text of a node with its whitespace and comments left out. */
function textOf(sourceCode, node) {
  return sourceCode
    .getTokens(node)
    .map((token) => token.value)
    .join(' ');
}

const identicalBranches = {
  meta: {
    type: 'problem',
    docs: { description: 'a conditional expression or an if/else whose two branches are the same' },
    messages: { same: 'Both branches of this conditional are the same: the condition changes nothing.' },
    schema: [],
  },
  create(context) {
    const sourceCode = context.sourceCode;
    return {
      ConditionalExpression(node) {
        if (textOf(sourceCode, node.consequent) === textOf(sourceCode, node.alternate)) context.report({ node, messageId: 'same' });
      },
      IfStatement(node) {
        if (node.alternate && node.alternate.type !== 'IfStatement' && textOf(sourceCode, node.consequent) === textOf(sourceCode, node.alternate)) {
          context.report({ node, messageId: 'same' });
        }
      },
    };
  },
};

const selfReplace = {
  meta: {
    type: 'problem',
    docs: { description: '`replace` / `replaceAll` whose replacement is the searched text itself' },
    messages: { same: 'This replaces a text with itself: it changes nothing.' },
    schema: [],
  },
  create(context) {
    return {
      CallExpression(node) {
        const callee = node.callee;
        if (callee.type !== 'MemberExpression' || callee.computed || !['replace', 'replaceAll'].includes(callee.property.name)) return;
        const [search, replacement] = node.arguments;
        if (search?.type === 'Literal' && replacement?.type === 'Literal' && typeof search.value === 'string' && search.value === replacement.value) {
          context.report({ node, messageId: 'same' });
        }
      },
    };
  },
};

export const deadEnds = {
  meta: { name: 'dead-ends' },
  rules: { 'identical-branches': identicalBranches, 'self-replace': selfReplace },
};
