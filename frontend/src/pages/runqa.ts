// Run QA: the form, then the result below it (the delivery's problems
// first; see ui/result.ts). The quick converter for
// signed-out visitors uses the same page with the homepage route.

import { messageOf } from "../api/client";
import type { ProcessInput, RunResult } from "../api/types";
import { readCues } from "../captions";
import { announce, h, replace } from "../dom";
import { newResultState, remainingLine, resultView, type ResultState } from "../ui/result";
import { newRunFormState, offerExplain, offerPresets, runForm, setBusy, type RunFormState } from "../ui/runform";
import { BatchQA } from "./runqa_batch";

export interface RunPageOptions {
  run: (input: ProcessInput) => Promise<RunResult>;
  /** onRemaining is told the quota line after each successful run. */
  onResult?: (r: RunResult) => void;
  /** batch adds Batch QA (signed in only: the signed-out converter has a few runs a day). */
  batch?: boolean;
}

/** RunPage keeps its form state across navigation within a session. */
export class RunPage {
  readonly form: RunFormState = newRunFormState();
  /** last is the latest result's view state: ticks, sort and selection survive navigation. */
  private last: ResultState | null = null;
  /** formEl is the form of the latest render: offerExplain changes only this page's form. */
  private formEl: HTMLElement | null = null;
  /** out is the report area of the latest render. */
  private out: HTMLElement | null = null;
  private batch: BatchQA | null;

  constructor(private opts: RunPageOptions) {
    this.batch = opts.batch ? new BatchQA({ run: opts.run, form: this.form, open: (res, file, name) => this.open(res, file, name) }) : null;
  }

  /** offerExplain shows the ExplainAI checkbox: the account has PRO_WORKSPACE and explain_ai. */
  offerExplain(offered: boolean): void {
    offerExplain(this.form, this.formEl, offered);
  }

  /** offerPresets adds the account's own presets to the preset select. */
  offerPresets(names: string[]): void {
    offerPresets(this.form, this.formEl, names);
  }

  render(): HTMLElement {
    const error = h("div", { id: "qa-error", class: "alert", role: "alert", hidden: true });
    const out = h("div", { id: "result-area" });
    this.out = out;
    const showError = (msg: string) => {
      error.hidden = false;
      replace(error, h("strong", null, "Could not run QA. "), msg);
    };
    const submit = async (input: ProcessInput) => {
      error.hidden = true;
      setBusy(this.form, true);
      announce("Running QA…");
      try {
        const [res, text] = await Promise.all([this.opts.run(input), input.file.text().catch(() => "")]);
        this.last = newResultState(res, input.file.name, readCues(input.file.name, text));
        this.opts.onResult?.(res);
        this.showResult(out);
        const left = res.report.remaining.length + (res.suggestions?.length ?? 0);
        announce(`QA finished: ${left} ${left === 1 ? "problem" : "problems"} in the delivery, ${res.report.diagnostics.length} in the uploaded file.`);
        document.getElementById("result-heading")?.focus();
      } catch (e) {
        showError(messageOf(e));
        announce("QA failed.");
      } finally {
        setBusy(this.form, false);
      }
    };
    this.formEl = runForm(this.form, submit, showError);
    const page = h("div", { class: "run-page" }, this.formEl, error, this.batch?.render(), out);
    if (this.last) this.showResult(out);
    return page;
  }

  /** open shows a batch row's result in the report view, as a single run's. */
  private async open(res: RunResult, file: File, name: string): Promise<void> {
    const text = await file.text().catch(() => "");
    this.last = newResultState(res, name, readCues(file.name, text));
    if (this.out) this.showResult(this.out);
    document.getElementById("result-heading")?.focus();
  }

  private showResult(out: HTMLElement): void {
    if (!this.last) return;
    replace(out, resultView(this.last, remainingLine(this.last.result)));
  }
}
