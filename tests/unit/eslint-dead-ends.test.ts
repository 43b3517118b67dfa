import { RuleTester } from 'eslint';
import { describe, it } from 'vitest';
import { deadEnds } from '../../scripts/eslint/dead-ends.js';

/** The project's lint rules against code that does nothing: each flags its case and leaves real code alone. */

RuleTester.describe = describe;
RuleTester.it = it;
const tester = new RuleTester();
const rules = deadEnds.rules ?? {};

tester.run('dead-ends/identical-branches', rules['identical-branches'], {
  valid: ['const a = ok ? 1 : 2;', 'if (ok) { run(); } else { stop(); }', 'if (ok) run(); else if (other) run();'],
  invalid: [
    { code: 'const column = relation ? `${name}` : `${name}`;', errors: [{ messageId: 'same' }] },
    { code: 'const a = ok ? f( x ) : f(x);', errors: [{ messageId: 'same' }] },
    { code: 'if (ok) { run(); } else { run(); }', errors: [{ messageId: 'same' }] },
  ],
});

tester.run('dead-ends/self-replace', rules['self-replace'], {
  valid: ["address.replace('://0.0.0.0', '://127.0.0.1');", "text.replaceAll('a', 'b');", 'text.replace(pattern, pattern);'],
  invalid: [
    { code: "address.replace('://127.0.0.1', '://127.0.0.1');", errors: [{ messageId: 'same' }] },
    { code: "text.replaceAll('x', 'x');", errors: [{ messageId: 'same' }] },
  ],
});
