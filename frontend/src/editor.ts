// A JavaScript code editor (CodeMirror 6) for export templates: line
// numbers, highlighting, bracket matching, undo, and lint diagnostics
// placed at a 1-based line and column as the API reports them.
//
// Keyboard: Tab is not bound, so Tab and Shift+Tab move the focus in and
// out of the editor as in any other field (CodeMirror's accessible
// default). Ctrl+] and Ctrl+[ (Cmd on a Mac) indent and outdent; Enter
// keeps the indentation. Ctrl+Shift+M opens the list of problems and F8
// goes to the next one.

import { defaultKeymap, history, historyKeymap } from "@codemirror/commands";
import { javascript } from "@codemirror/lang-javascript";
import { bracketMatching, defaultHighlightStyle, indentOnInput, syntaxHighlighting } from "@codemirror/language";
import { type Diagnostic, forceLinting, lintGutter, lintKeymap, linter, setDiagnostics } from "@codemirror/lint";
import { EditorState, type Text } from "@codemirror/state";
import {
  EditorView,
  drawSelection,
  highlightActiveLine,
  highlightActiveLineGutter,
  highlightSpecialChars,
  keymap,
  lineNumbers,
} from "@codemirror/view";

/** Problem is a script error at a 1-based line and column (0 when unknown). */
export interface Problem {
  line: number;
  column: number;
  message: string;
  severity?: "error" | "warning";
}

export interface EditorOptions {
  parent: HTMLElement;
  /** id given to the editable element, which the label and tests find. */
  id: string;
  labelledBy: string;
  describedBy: string;
  /** onChange runs after each edit of the text. */
  onChange?: () => void;
  /**
   * check validates the text (debounced, after edits) and answers its
   * problems; it answers null when it cannot tell, leaving the marks as
   * they are.
   */
  check?: (text: string) => Promise<Problem[] | null>;
  /** onProblems runs whenever the marked problems change. */
  onProblems?: (problems: Problem[]) => void;
}

export interface CodeEditor {
  readonly view: EditorView;
  text(): string;
  /** setText replaces the whole text and its undo history. */
  setText(text: string): void;
  /**
   * mark shows problems that a run found (a test, a save) at their lines,
   * replacing the earlier ones. They stay, beside what the check finds,
   * until the text changes.
   */
  mark(problems: Problem[]): void;
  /** recheck runs the check now. */
  recheck(): void;
  /** goto puts the cursor at a 1-based line and column and focuses the editor. */
  goto(line: number, column: number): void;
  focus(): void;
  destroy(): void;
}

/** rangeOf turns a 1-based line and column into the range to underline: the word or character there. */
export function rangeOf(doc: Text, line: number, column: number): { from: number; to: number } {
  if (line < 1) return { from: 0, to: Math.min(doc.length, doc.line(1).to) };
  const l = doc.line(Math.min(line, doc.lines));
  if (line > doc.lines) return { from: l.to, to: l.to };
  const col = Math.max(1, column || 1);
  const from = Math.min(l.from + col - 1, l.to);
  const rest = doc.sliceString(from, l.to);
  const m = /^(\w+|\S)/.exec(rest);
  if (m) return { from, to: from + m[0].length };
  // At the end of the line or on spaces: mark the line's last visible character, if any.
  if (from === l.to && l.to > l.from) return { from: l.to - 1, to: l.to };
  return { from, to: from };
}

function diagnosticsOf(doc: Text, problems: Problem[]): Diagnostic[] {
  return problems.filter((p) => p.line > 0).map((p) => {
    const r = rangeOf(doc, p.line, p.column);
    return { from: r.from, to: r.to, severity: p.severity ?? "error", message: p.message, source: "CaptionQA" };
  });
}

const theme = EditorView.theme({
  "&": { fontSize: "0.92rem", backgroundColor: "#fff", border: "1px solid #8c959f", borderRadius: "6px" },
  "&.cm-focused": { outline: "3px solid #0b5cad", outlineOffset: "2px" },
  ".cm-scroller": { fontFamily: 'ui-monospace, SFMono-Regular, "SF Mono", Menlo, Consolas, "Liberation Mono", monospace', lineHeight: "1.5" },
  ".cm-content": { padding: "6px 0" },
  ".cm-gutters": { backgroundColor: "#f6f8fa", color: "#57606a", borderRight: "1px solid #d0d7de", borderRadius: "6px 0 0 6px" },
  ".cm-activeLine": { backgroundColor: "#f3f7fc" },
  ".cm-activeLineGutter": { backgroundColor: "#e7f0fa", color: "#1f2328" },
  ".cm-lintRange-error": { backgroundColor: "#ffebe9" },
  ".cm-tooltip-lint": { maxWidth: "min(36rem, 90vw)" },
});

/** createEditor mounts an editor in opts.parent. */
export function createEditor(opts: EditorOptions): CodeEditor {
  let problems: Problem[] = [];
  /** marked holds mark's problems and the text they were found in. */
  let marked: { doc: Text; list: Problem[] } | null = null;
  const withMarked = (doc: Text, found: Problem[]): Problem[] => {
    if (!marked || marked.doc !== doc) return found;
    const seen = new Set(found.map((p) => `${p.line}:${p.column}:${p.message}`));
    return [...found, ...marked.list.filter((p) => !seen.has(`${p.line}:${p.column}:${p.message}`))];
  };
  const publish = (list: Problem[]) => {
    problems = list;
    opts.onProblems?.(problems);
  };

  const extensions = [
    lineNumbers(),
    highlightActiveLineGutter(),
    highlightSpecialChars(),
    history(),
    drawSelection(),
    indentOnInput(),
    bracketMatching(),
    highlightActiveLine(),
    syntaxHighlighting(defaultHighlightStyle, { fallback: true }),
    javascript(),
    lintGutter(),
    keymap.of([...defaultKeymap, ...historyKeymap, ...lintKeymap]),
    EditorView.lineWrapping,
    theme,
    EditorView.contentAttributes.of({
      id: opts.id,
      "aria-labelledby": opts.labelledBy,
      "aria-describedby": opts.describedBy,
      spellcheck: "false",
      autocapitalize: "off",
      autocorrect: "off",
      translate: "no",
    }),
    EditorView.updateListener.of((u) => {
      if (u.docChanged) opts.onChange?.();
    }),
  ];
  if (opts.check) {
    const check = opts.check;
    extensions.push(
      linter(
        async (view) => {
          const doc = view.state.doc;
          const found = await check(doc.toString());
          // data-checks counts the checks answered since the text was set,
          // so that a test can wait for one instead of for a pause.
          opts.parent.dataset.checks = String(Number(opts.parent.dataset.checks ?? 0) + 1);
          // A newer text, or no answer: keep what is marked.
          if (found === null || view.state.doc !== doc) return diagnosticsOf(view.state.doc, problems);
          const all = withMarked(doc, found);
          publish(all);
          return diagnosticsOf(doc, all);
        },
        { delay: 700 },
      ),
    );
  }

  const view = new EditorView({ state: EditorState.create({ doc: "", extensions }), parent: opts.parent });

  const mark = (list: Problem[]) => {
    marked = { doc: view.state.doc, list };
    publish(list);
    view.dispatch(setDiagnostics(view.state, diagnosticsOf(view.state.doc, list)));
  };

  return {
    view,
    text: () => view.state.doc.toString(),
    setText(text: string) {
      view.setState(EditorState.create({ doc: text, extensions }));
      opts.parent.dataset.checks = "0";
      marked = null;
      publish([]);
    },
    mark,
    recheck: () => forceLinting(view),
    goto(line: number, column: number) {
      const r = rangeOf(view.state.doc, line, column);
      view.dispatch({ selection: { anchor: r.from }, scrollIntoView: true });
      view.focus();
    },
    focus: () => view.focus(),
    destroy: () => view.destroy(),
  };
}
