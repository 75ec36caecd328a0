import * as vscode from 'vscode';
import type { ChatViewProvider } from '../chat/view.ts';
import { firstCodeBlock, MAX_SELECTION_CHARS, selectionMessage } from './prompt.ts';

const PROPOSAL_SCHEME = 'assistente-proposal';

function selectionOf(editor: vscode.TextEditor | undefined) {
  if (!editor || editor.selection.isEmpty) {
    void vscode.window.showWarningMessage(vscode.l10n.t('Select some code first.'));
    return undefined;
  }
  const { document, selection } = editor;
  return {
    editor,
    range: new vscode.Range(selection.start, selection.end),
    context: {
      fileName: vscode.workspace.asRelativePath(document.uri),
      languageId: document.languageId,
      startLine: selection.start.line + 1,
      endLine: selection.end.line + 1,
      text: document.getText(selection),
    },
  };
}

function message(question: string, s: NonNullable<ReturnType<typeof selectionOf>>) {
  const m = selectionMessage(question, s.context, {
    header: (file, language, lines) => vscode.l10n.t('`{0}` ({1}), lines {2}:', file, language, lines),
    truncated: (shown, total) =>
      vscode.l10n.t('(The selection was cut to its first {0} of {1} characters.)', shown, total),
  });
  if (m.truncated)
    void vscode.window.showWarningMessage(
      vscode.l10n.t('The selection is long: only its first {0} characters were sent.', MAX_SELECTION_CHARS),
    );
  return m.content;
}

/** Proposed edits shown in the diff, by the address of their right-hand side. */
class Proposals implements vscode.TextDocumentContentProvider {
  private readonly texts = new Map<string, string>();
  set(uri: vscode.Uri, text: string) {
    this.texts.set(uri.toString(), text);
  }
  delete(uri: vscode.Uri) {
    this.texts.delete(uri.toString());
  }
  provideTextDocumentContent(uri: vscode.Uri): string {
    return this.texts.get(uri.toString()) ?? '';
  }
}

/** "Ask about selection", "Explain selection", "Edit selection…": the context menu, palette and code action. */
export function registerSelectionCommands(chat: ChatViewProvider): vscode.Disposable[] {
  const proposals = new Proposals();
  let counter = 0;

  const ask = vscode.commands.registerCommand('assistente.askSelection', async () => {
    const s = selectionOf(vscode.window.activeTextEditor);
    if (!s) return;
    const question = await vscode.window.showInputBox({
      title: vscode.l10n.t('Ask Assistente about the selection'),
      prompt: vscode.l10n.t('Your question about the selected code'),
      ignoreFocusOut: true,
    });
    if (!question?.trim()) return;
    await chat.ask(message(question, s));
  });

  const explain = vscode.commands.registerCommand('assistente.explainSelection', async () => {
    const s = selectionOf(vscode.window.activeTextEditor);
    if (s) await chat.ask(message(vscode.l10n.t('Explain this code.'), s));
  });

  const edit = vscode.commands.registerCommand('assistente.editSelection', async () => {
    const s = selectionOf(vscode.window.activeTextEditor);
    if (!s) return;
    const instruction = await vscode.window.showInputBox({
      title: vscode.l10n.t('Edit the selection with Assistente'),
      prompt: vscode.l10n.t('What should change?'),
      ignoreFocusOut: true,
    });
    if (!instruction?.trim()) return;
    const ask = `${instruction.trim()}\n\n${vscode.l10n.t('Answer with the complete replacement for the selected code in one fenced code block.')}`;
    const answer = await vscode.window.withProgress(
      {
        location: vscode.ProgressLocation.Notification,
        title: vscode.l10n.t('Assistente is preparing the edit…'),
      },
      () => chat.complete(message(ask, s)),
    );
    const replacement = firstCodeBlock(answer);
    if (replacement === undefined) {
      void vscode.window.showWarningMessage(vscode.l10n.t('The answer had no code to apply.'));
      return;
    }
    const document = s.editor.document;
    const original = document.getText();
    const start = document.offsetAt(s.range.start);
    const end = document.offsetAt(s.range.end);
    const proposed = original.slice(0, start) + replacement + original.slice(end);
    const right = vscode.Uri.from({
      scheme: PROPOSAL_SCHEME,
      path: document.uri.path,
      query: String(++counter),
    });
    proposals.set(right, proposed);
    const name = document.uri.path.split('/').pop() ?? '';
    await vscode.commands.executeCommand(
      'vscode.diff',
      document.uri,
      right,
      vscode.l10n.t('{0} ↔ proposed edit', name),
    );
    const accept = vscode.l10n.t('Accept');
    const choice = await vscode.window.showInformationMessage(
      vscode.l10n.t('Apply the proposed edit to {0}?', name),
      accept,
      vscode.l10n.t('Reject'),
    );
    proposals.delete(right);
    if (choice !== accept) return;
    if (document.getText() !== original) {
      void vscode.window.showWarningMessage(
        vscode.l10n.t('The file changed meanwhile; the edit was not applied.'),
      );
      return;
    }
    const change = new vscode.WorkspaceEdit();
    change.replace(document.uri, s.range, replacement);
    await vscode.workspace.applyEdit(change);
  });

  const actions = vscode.languages.registerCodeActionsProvider(
    [{ scheme: 'file' }, { scheme: 'untitled' }],
    {
      provideCodeActions(_document, range) {
        if (range.isEmpty) return [];
        return [
          ['assistente.explainSelection', vscode.l10n.t('Assistente: Explain selection')],
          ['assistente.askSelection', vscode.l10n.t('Assistente: Ask about selection')],
          ['assistente.editSelection', vscode.l10n.t('Assistente: Edit selection…')],
        ].map(([command, title]) => {
          const action = new vscode.CodeAction(title!, vscode.CodeActionKind.RefactorRewrite);
          action.command = { command: command!, title: title! };
          return action;
        });
      },
    },
    { providedCodeActionKinds: [vscode.CodeActionKind.RefactorRewrite] },
  );

  return [
    ask,
    explain,
    edit,
    actions,
    vscode.workspace.registerTextDocumentContentProvider(PROPOSAL_SCHEME, proposals),
  ];
}
