;;; flowdrop-lsp.el --- FlowDrop workflows in Emacs with eglot -*- lexical-binding: t; -*-

;; Diagnostics and quick fixes from `flowdrop-lsp serve' for FlowDrop workflow files:
;; `*.flowdrop.json', Drupal config workflows `flowdrop_workflow.flowdrop_workflow.<id>.yml'
;; (or `.yaml'), and, as `flowdrop-lsp check' judges them by content, any `.json', `.yml' or
;; `.yaml' file holding the words `nodes' and `edges' (an API export saved as exported.json).
;; That test is a cheap superset of the server's: every workflow the server judges by content
;; has both keys, anywhere in the file (an export may put `edges' after a huge `nodes'); the
;; server stays silent on the rest.  Tested with Emacs 28.2 and eglot 1.9 (Debian `emacs-nox',
;; `elpa-eglot').
;;
;; Usage, in init.el:
;;   (add-to-list 'load-path "/path/to/flowdrop-lsp/editors/emacs")
;;   (require 'flowdrop-lsp)
;;
;; Each kind of workflow file gets its own major mode, derived from the mode the file would
;; otherwise get, so that eglot starts the server for workflows only (never for package.json,
;; tsconfig.json or docker-compose.yml; eglot starts one server per major mode, so attaching to
;; every JSON buffer would mean taking `js-mode' itself on Emacs 28, JavaScript files included)
;; and sends the languageId the server reads the buffer with: eglot 1.9 keeps one languageId
;; per server, so JSON and YAML workflows of one project get a server each.
;;
;; The server: `flowdrop-lsp-executable' when set, else `<root>/.venv/bin/flowdrop-lsp' (root:
;; the nearest folder holding flowdrop-lsp.toml, pyproject.toml or .git), else `flowdrop-lsp'
;; on `exec-path'.  When none is executable, eglot is not started and the user is warned once.

;;; Code:

(require 'eglot)

(defgroup flowdrop-lsp nil
  "FlowDrop workflows through flowdrop-lsp."
  :group 'tools)

(defcustom flowdrop-lsp-executable nil
  "The flowdrop-lsp program; nil: the project's .venv/bin/flowdrop-lsp, else PATH."
  :type '(choice (const :tag "Find it" nil) file))

(defconst flowdrop-lsp--root-markers '("flowdrop-lsp.toml" "pyproject.toml" ".git")
  "Files or folders marking a project root (as in the Neovim and Vim configs).")

(defvar flowdrop-lsp--warned nil
  "Non-nil once the user was told that the server is missing.")

(defun flowdrop-lsp--root (file)
  "The nearest folder above FILE holding a root marker, else FILE's folder."
  (let ((start (file-name-directory (expand-file-name file))))
    (or (locate-dominating-file
         start
         (lambda (dir)
           (seq-some (lambda (marker) (file-exists-p (expand-file-name marker dir)))
                     flowdrop-lsp--root-markers)))
        start)))

(defun flowdrop-lsp--server (file)
  "The flowdrop-lsp program for FILE, or nil when none is executable."
  (if flowdrop-lsp-executable
      (and (file-executable-p flowdrop-lsp-executable) flowdrop-lsp-executable)
    (let ((in-venv (expand-file-name ".venv/bin/flowdrop-lsp" (flowdrop-lsp--root file))))
      (if (file-executable-p in-venv)
          in-venv
        (executable-find "flowdrop-lsp")))))

(defun flowdrop-lsp--contact (&optional _interactive)
  "The eglot contact for the current buffer's workflow file."
  (list (or (flowdrop-lsp--server buffer-file-name) "flowdrop-lsp") "serve"))

(defun flowdrop-lsp--ensure ()
  "Start eglot for this workflow buffer, or warn once that the server is missing."
  (when buffer-file-name
    (if (flowdrop-lsp--server buffer-file-name)
        (eglot-ensure)
      (unless flowdrop-lsp--warned
        (setq flowdrop-lsp--warned t)
        (display-warning
         'flowdrop-lsp
         (concat
          (if flowdrop-lsp-executable
              (format "`flowdrop-lsp-executable' %s is not executable" flowdrop-lsp-executable)
            (format "flowdrop-lsp is neither on PATH nor in %s.venv/bin"
                    (flowdrop-lsp--root buffer-file-name)))
          ", so FlowDrop workflows get no diagnostics. Install it: pipx install"
          " /path/to/flowdrop-lsp (or set `flowdrop-lsp-executable'), then reopen the file."))))))

;; Emacs 28 has no JSON mode (js-json-mode came with 29) and no YAML mode (elpa-yaml-mode).
(defalias 'flowdrop-lsp--json-parent-mode
  (if (fboundp 'js-json-mode) 'js-json-mode 'js-mode))
(defalias 'flowdrop-lsp--yaml-parent-mode
  (if (fboundp 'yaml-mode) 'yaml-mode 'text-mode))

;;;###autoload
(define-derived-mode flowdrop-json-mode flowdrop-lsp--json-parent-mode "FlowDrop"
  "Major mode for FlowDrop workflow files.
*.flowdrop.json, and JSON files holding the words nodes and edges.")

;;;###autoload
(define-derived-mode flowdrop-yaml-mode flowdrop-lsp--yaml-parent-mode "FlowDrop-YAML"
  "Major mode for FlowDrop workflows in YAML.
Files named flowdrop_workflow.flowdrop_workflow.<id>.yml or .yaml (Drupal config
workflows), and YAML files holding the words nodes and edges.")

;;;###autoload
(add-to-list 'auto-mode-alist '("\\.flowdrop\\.json\\'" . flowdrop-json-mode))
;;;###autoload
(add-to-list 'auto-mode-alist
             '("/flowdrop_workflow\\.flowdrop_workflow\\.[^/]+\\.ya?ml\\'" . flowdrop-yaml-mode))

;; Files named otherwise are chosen by content: `magic-mode-alist' is consulted before
;; `auto-mode-alist', with the buffer narrowed to its first few kilobytes, hence the `widen'.
;; A file that only becomes a workflow later (pasted into) gets the mode from `M-x normal-mode'
;; or on its next visit.

(defun flowdrop-lsp--mentions-nodes-and-edges ()
  "Whether the whole buffer holds the words nodes and edges."
  (save-excursion
    (save-restriction
      (widen)
      (let ((case-fold-search nil))
        (goto-char (point-min))
        (and (search-forward "nodes" nil t)
             (progn (goto-char (point-min))
                    (search-forward "edges" nil t))
             t)))))

(defun flowdrop-lsp--named-p (regexp)
  "Whether the visited file's name matches REGEXP, ignoring case."
  (and buffer-file-name
       (let ((case-fold-search t))
         (string-match-p regexp buffer-file-name))))

(defun flowdrop-lsp--json-workflow-p ()
  "Whether this `.json' buffer may be a FlowDrop workflow (for `magic-mode-alist')."
  (and (flowdrop-lsp--named-p "\\.json\\'") (flowdrop-lsp--mentions-nodes-and-edges)))

(defun flowdrop-lsp--yaml-workflow-p ()
  "Whether this YAML buffer may be a FlowDrop workflow (for `magic-mode-alist')."
  (and (flowdrop-lsp--named-p "\\.ya?ml\\'") (flowdrop-lsp--mentions-nodes-and-edges)))

;;;###autoload
(add-to-list 'magic-mode-alist '(flowdrop-lsp--json-workflow-p . flowdrop-json-mode))
;;;###autoload
(add-to-list 'magic-mode-alist '(flowdrop-lsp--yaml-workflow-p . flowdrop-yaml-mode))

;; A list of one (MODE :language-id ID) each: eglot 1.9 reads the mode names of a bare
;; (MODE :language-id ID) wrongly.
(add-to-list 'eglot-server-programs
             '(((flowdrop-json-mode :language-id "json")) . flowdrop-lsp--contact))
(add-to-list 'eglot-server-programs
             '(((flowdrop-yaml-mode :language-id "yaml")) . flowdrop-lsp--contact))

(add-hook 'flowdrop-json-mode-hook #'flowdrop-lsp--ensure)
(add-hook 'flowdrop-yaml-mode-hook #'flowdrop-lsp--ensure)

(provide 'flowdrop-lsp)
;;; flowdrop-lsp.el ends here
