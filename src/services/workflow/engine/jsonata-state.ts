/** The JSONata fields of a state (`QueryLanguage: "JSONata"`), compiled once per definition. */
import { compileJTemplate, type JTemplate } from './jsonata';

export interface JChoice {
  cond: JTemplate;
  next: string;
  assign?: JTemplate;
  output?: JTemplate;
}

export interface JState {
  arguments?: JTemplate;
  output?: JTemplate;
  assign?: JTemplate;
  items?: JTemplate;
  itemSelector?: JTemplate;
  timeoutSeconds?: JTemplate;
  heartbeatSeconds?: JTemplate;
  seconds?: JTemplate;
  timestamp?: JTemplate;
  maxConcurrency?: JTemplate;
  error?: JTemplate;
  cause?: JTemplate;
  choices: JChoice[];
}

const isObj = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

export function compileJState(s: Record<string, unknown>, type: string): JState {
  const t = (k: string, at = k) => (s[k] === undefined ? undefined : compileJTemplate(s[k], at));
  const js: JState = {
    arguments: t('Arguments'),
    output: t('Output'),
    assign: t('Assign'),
    items: t('Items'),
    itemSelector: t('ItemSelector'),
    timeoutSeconds: t('TimeoutSeconds'),
    heartbeatSeconds: t('HeartbeatSeconds'),
    seconds: t('Seconds'),
    timestamp: t('Timestamp'),
    maxConcurrency: t('MaxConcurrency'),
    error: t('Error'),
    cause: t('Cause'),
    choices: [],
  };
  if (type === 'Choice' && Array.isArray(s.Choices)) {
    s.Choices.forEach((c: unknown, i: number) => {
      const r = isObj(c) ? c : {};
      js.choices.push({
        cond: compileJTemplate(r.Condition, `Choices[${i}].Condition`),
        next: typeof r.Next === 'string' ? r.Next : '',
        assign: r.Assign === undefined ? undefined : compileJTemplate(r.Assign, `Choices[${i}].Assign`),
        output: r.Output === undefined ? undefined : compileJTemplate(r.Output, `Choices[${i}].Output`),
      });
    });
  }
  return js;
}
