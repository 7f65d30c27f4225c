import type { TemplateLanguage } from '../templates/template-rules';
import templatesData from './starter/templates.json';
import workflowsData from './starter/workflows.json';

/** One language's version of a starter template, as the template API takes it. */
export interface StarterTemplateText {
  name: string;
  description: string;
  type: string;
  tags: string;
  content: string;
}

export interface StarterTemplate {
  key: string;
  en: StarterTemplateText;
  es: StarterTemplateText;
}

export interface StarterWorkflow {
  key: string;
  /** Keys of starter templates, in step order (the same language's version of each). */
  steps: string[];
  en: { name: string; description: string; tags: string };
  es: { name: string; description: string; tags: string };
}

export const STARTER_LANGUAGES: readonly TemplateLanguage[] = ['en', 'es'];

/** The starter content shipped in ./starter (edit those files to change it); checked when the module loads. */
export const STARTER_TEMPLATES: readonly StarterTemplate[] = templatesData;
export const STARTER_WORKFLOWS: readonly StarterWorkflow[] = workflowsData;

/** Problems of the data files themselves (duplicate keys, unknown steps); the template rules run on loading. */
export function starterDataProblems(
  templates: readonly StarterTemplate[] = STARTER_TEMPLATES,
  workflows: readonly StarterWorkflow[] = STARTER_WORKFLOWS,
): string[] {
  const problems: string[] = [];
  const keys = new Set<string>();
  for (const t of templates) {
    if (keys.has(t.key)) problems.push(`template ${t.key} appears twice`);
    keys.add(t.key);
  }
  for (const w of workflows)
    for (const step of w.steps)
      if (!keys.has(step)) problems.push(`workflow ${w.key} uses unknown template ${step}`);
  return problems;
}
