import { Text } from '@mantine/core';
import { WIDGET_PREVIEW_REMOTE } from '@avatar-studio/contracts/widget';
import { loadScript } from '@avatar-studio/shared';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';

/** What the widget's preview module takes (frontends/widget/src/preview.ts); the app never imports its source. */
interface PreviewSettings {
  name: string;
  accent: string;
  image: string | null;
  language: 'en' | 'es';
}
interface PreviewHandle {
  update(settings: PreviewSettings): void;
  unmount(): void;
}
interface PreviewModule {
  mountPreview(host: HTMLElement, settings: PreviewSettings): PreviewHandle;
}
/** A webpack container as the widget's preview-entry.js publishes it. */
interface Container {
  init(shareScope: object): Promise<void> | void;
  get(module: string): Promise<() => unknown>;
}

let loading: Promise<PreviewModule> | null = null;

/**
 * The widget's preview, loaded once through Module Federation from the widget's own build (served at
 * /widget/), so the generator shows exactly the button and panel visitors will see. It shares nothing with the
 * app: the widget needs no framework.
 */
export function loadWidgetPreview(): Promise<PreviewModule> {
  loading ??= (async () => {
    const scope = window as unknown as Record<string, Container | undefined>;
    if (!scope[WIDGET_PREVIEW_REMOTE.global]) await loadScript(WIDGET_PREVIEW_REMOTE.entry);
    const container = scope[WIDGET_PREVIEW_REMOTE.global];
    if (!container) throw new Error('The widget preview did not load.');
    await container.init({});
    const factory = await container.get(WIDGET_PREVIEW_REMOTE.module);
    const module = factory() as Partial<PreviewModule> | undefined;
    if (typeof module?.mountPreview !== 'function') throw new Error('The widget preview did not load.');
    return module as PreviewModule;
  })();
  // A failed load is tried again the next time the generator opens.
  loading.catch(() => (loading = null));
  return loading;
}

/** A file chosen in the form as an address the preview can show, released when it changes. */
function useObjectUrl(file: File | null): string | null {
  const [url, setUrl] = useState<string | null>(null);
  useEffect(() => {
    if (!file) return setUrl(null);
    const next = URL.createObjectURL(file);
    setUrl(next);
    return () => URL.revokeObjectURL(next);
  }, [file]);
  return url;
}

/** The live preview of the widget the form describes: it follows the name, colour and image as they change. */
export function WidgetPreview({ name, accent, image }: { name: string; accent: string; image: File | null }) {
  const { t, i18n } = useTranslation('customer');
  const host = useRef<HTMLDivElement>(null);
  const handle = useRef<PreviewHandle | null>(null);
  const [failed, setFailed] = useState(false);
  const imageUrl = useObjectUrl(image);
  const settings: PreviewSettings = {
    name,
    accent,
    image: imageUrl,
    language: i18n.language?.startsWith('es') ? 'es' : 'en',
  };
  const latest = useRef(settings);
  latest.current = settings;

  useEffect(() => {
    let cancelled = false;
    loadWidgetPreview().then(
      (module) => {
        if (cancelled || !host.current) return;
        handle.current = module.mountPreview(host.current, latest.current);
      },
      () => !cancelled && setFailed(true),
    );
    return () => {
      cancelled = true;
      handle.current?.unmount();
      handle.current = null;
    };
  }, []);

  useEffect(() => {
    handle.current?.update(settings);
    // The settings object is new on every render; what it holds is listed here.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [settings.name, settings.accent, settings.image, settings.language]);

  if (failed) return <Text c="dimmed">{t('chatWidget.previewFailed')}</Text>;
  return <div ref={host} data-testid="widget-preview" />;
}
