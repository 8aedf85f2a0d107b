package cli

// projectCommands lists the verbs of "captionqa project".
func projectCommands() []subcommand {
	return []subcommand{
		{"create", projectCreateUsage, runProjectCreate},
		{"list", projectListUsage, runProjectList},
		{"diff", projectDiffUsage, runProjectDiff},
		{"export", projectExportUsage, runProjectExport},
	}
}
