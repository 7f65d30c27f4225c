import '@blocknote/mantine/style.css';
import type { PartialBlock } from '@blocknote/core';
import { en as blockNoteEn, es as blockNoteEs } from '@blocknote/core/locales';
import { BlockNoteView } from '@blocknote/mantine';
import { useCreateBlockNote } from '@blocknote/react';
import { useComputedColorScheme } from '@mantine/core';
import { uploadFile } from '@avatar-studio/shared';
import { forwardRef, useEffect, useImperativeHandle, useRef } from 'react';
import { useTranslation } from 'react-i18next';

/** What the page reads from and writes into the editor. */
export interface BlockEditorHandle {
  /** The selected text, '' when nothing is selected. */
  selectedText(): string;
  /**
   * Starts inserting generated Markdown after the selection (or the block holding the cursor): each `update`
   * replaces what this insertion wrote so far with the Markdown given, so a stream grows in place.
   */
  beginInsert(): { update(markdown: string): void };
}

export interface EditorChange {
  blocks: Record<string, unknown>[];
  markdown: string;
}

/**
 * The block editor (BlockNote, Mantine flavour): headings, lists, tables, images (uploaded through
 * /api/files), and the slash menu. It starts from the stored blocks, or from the Markdown when a document has
 * none, and reports every change as blocks with their Markdown.
 */
export const BlockEditor = forwardRef<
  BlockEditorHandle,
  {
    blocks: Record<string, unknown>[] | null;
    markdown: string;
    editable: boolean;
    label: string;
    onChange: (change: EditorChange) => void;
  }
>(function BlockEditor({ blocks, markdown, editable, label, onChange }, ref) {
  const { i18n } = useTranslation();
  const scheme = useComputedColorScheme('light');
  const editor = useCreateBlockNote({
    initialContent: blocks?.length ? (blocks as PartialBlock[]) : undefined,
    dictionary: i18n.language?.startsWith('es') ? blockNoteEs : blockNoteEn,
    uploadFile: (file: File) => uploadFile(file),
    // The editable area is a text field for assistive technology: it needs its own name.
    domAttributes: { editor: { 'aria-label': label } },
  });
  // Markdown-only documents are read once into blocks; that first load is not an edit.
  const loading = useRef(!blocks?.length && markdown.trim() !== '');
  useEffect(() => {
    if (!loading.current) return;
    editor.replaceBlocks(editor.document, editor.tryParseMarkdownToBlocks(markdown));
    loading.current = false;
    // Only the first render's content is loaded; later ones come from the editor itself.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [editor]);

  useImperativeHandle(
    ref,
    () => ({
      selectedText: () => editor.getSelectedText(),
      beginInsert() {
        const selection = editor.getSelection();
        const reference = selection?.blocks.at(-1) ?? editor.getTextCursorPosition().block;
        let written: string[] = [];
        return {
          update(text: string) {
            const parsed = editor.tryParseMarkdownToBlocks(text);
            if (!parsed.length) return;
            const inserted: { id: string }[] = written.length
              ? editor.replaceBlocks(written, parsed).insertedBlocks
              : editor.insertBlocks(parsed, reference, 'after');
            written = inserted.map((b) => b.id);
          },
        };
      },
    }),
    [editor],
  );

  return (
    <BlockNoteView
      editor={editor}
      editable={editable}
      theme={scheme}
      aria-label={label}
      onChange={() => {
        if (loading.current) return;
        onChange({
          blocks: editor.document as unknown as Record<string, unknown>[],
          markdown: editor.blocksToMarkdownLossy(editor.document),
        });
      }}
    />
  );
});
