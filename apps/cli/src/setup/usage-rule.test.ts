import { describe, expect, it } from 'vitest';
import { RULE_BLOCK, withoutRule, withRule } from './usage-rule.js';

const plain = { file: 'AGENTS.md' };
const cursor = { file: '.cursor/rules/docs.mdc', header: '---\nalwaysApply: true\n---\n\n' };

function ruled(text: string | undefined, rule: { file: string; header?: string } = plain) {
  const edit = withRule(text, rule);
  if (!edit.ok) throw new Error(edit.error);
  return edit;
}

describe('withRule', () => {
  it("makes a new file holding the block (after a Cursor rule's front matter)", () => {
    expect(ruled(undefined)).toEqual({ ok: true, change: 'create', text: `${RULE_BLOCK}\n` });
    expect(ruled(undefined, cursor).text).toBe(`---\nalwaysApply: true\n---\n\n${RULE_BLOCK}\n`);
  });

  it("adds the block once at the end of the user's file, after a blank line", () => {
    const text = '# Project\n\nUse pnpm.\n';
    const once = ruled(text);
    expect(once).toEqual({ ok: true, change: 'update', text: `${text}\n${RULE_BLOCK}\n` });
    expect(ruled(once.text)).toEqual({ ok: true, change: 'unchanged', text: once.text });
    expect(ruled('no final newline').text).toBe(`no final newline\n\n${RULE_BLOCK}\n`);
  });

  it('replaces an older block where it stands, keeping what is around it', () => {
    const old = RULE_BLOCK.replace(/## [^\n]*/, '## An older rule');
    const text = `# Top\n\n${old}\n\n# Bottom\n`;
    expect(ruled(text)).toEqual({ ok: true, change: 'update', text: `# Top\n\n${RULE_BLOCK}\n\n# Bottom\n` });
  });

  it('refuses a block whose end marker was deleted', () => {
    const text = `# Top\n${RULE_BLOCK.split('\n').slice(0, 3).join('\n')}\n`;
    expect(withRule(text, plain)).toMatchObject({ ok: false, code: 'invalid-rule' });
    expect(withoutRule(text, plain)).toMatchObject({ ok: false, code: 'invalid-rule' });
  });
});

describe('withoutRule', () => {
  it.each([
    ['with a final newline', '# Project\n\nUse pnpm.\n'],
    ['without one', '# Project'],
    ['ending in a blank line', '# Project\n\n'],
  ])("gives back the user's file as it was, %s", (_name, text) => {
    const after = ruled(text).text;
    const back = withoutRule(after, plain);
    expect(back.ok && back.text).toBe(text.endsWith('\n') ? text : `${text}\n`);
  });

  it('deletes a file that held nothing but the block (and the header setup wrote)', () => {
    expect(withoutRule(ruled(undefined).text, plain)).toEqual({ ok: true, change: 'delete', text: undefined });
    expect(withoutRule(ruled(undefined, cursor).text, cursor)).toEqual({ ok: true, change: 'delete', text: undefined });
  });

  it('leaves a file without the block as it is', () => {
    expect(withoutRule('# Mine\n', plain)).toEqual({ ok: true, change: 'absent', text: '# Mine\n' });
    expect(withoutRule(undefined, plain)).toEqual({ ok: true, change: 'absent', text: undefined });
  });
});
