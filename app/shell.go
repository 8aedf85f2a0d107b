//go:build desktop

package app

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sync"

	"github.com/wailsapp/wails/v2/pkg/runtime"
)

// maxOpenBytes bounds a file OpenCaptionFile hands to the page; the API
// refuses caption files far smaller than this anyway.
const maxOpenBytes = 16 << 20

// Shell is the one object bound into the window, for what HTTP cannot do:
// native open and save dialogs. In the page it is
// window.go.app.Shell.OpenCaptionFile() and
// window.go.app.Shell.SaveFile(name, data); both exist only in the
// desktop window, so the UI checks for window.go first and falls back to
// <input type=file> and a download link in a browser.
type Shell struct {
	mu  sync.Mutex
	ctx context.Context // Wails' context, set in OnStartup
}

// OpenedFile is a file the user picked. Data is the file's bytes (base64
// in JSON), to post to the API as the multipart file part.
type OpenedFile struct {
	Name string `json:"name"`
	Path string `json:"path"`
	Data []byte `json:"data"`
}

// OpenCaptionFile shows the native open dialog for caption files and
// returns the chosen file, or null when the user cancels.
func (s *Shell) OpenCaptionFile() (*OpenedFile, error) {
	ctx, err := s.context()
	if err != nil {
		return nil, err
	}
	path, err := runtime.OpenFileDialog(ctx, runtime.OpenDialogOptions{
		Title: "Open a caption file",
		Filters: []runtime.FileFilter{
			{DisplayName: "Caption files (*.srt, *.vtt, *.sbv, *.ass, *.ssa, *.ttml, *.dfxp, *.xml, *.scc, *.stl, *.json)", Pattern: "*.srt;*.vtt;*.sbv;*.ass;*.ssa;*.ttml;*.dfxp;*.xml;*.scc;*.stl;*.json"},
			{DisplayName: "All files", Pattern: "*"},
		},
	})
	if err != nil || path == "" {
		return nil, err
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, maxOpenBytes+1))
	if err != nil {
		return nil, err
	}
	if len(data) > maxOpenBytes {
		return nil, fmt.Errorf("%s is larger than %d MiB", filepath.Base(path), maxOpenBytes>>20)
	}
	return &OpenedFile{Name: filepath.Base(path), Path: path, Data: data}, nil
}

// SaveFile shows the native save dialog proposing defaultName, writes
// data (base64 in JSON) to the chosen path and returns it, or "" when the
// user cancels.
func (s *Shell) SaveFile(defaultName string, data []byte) (string, error) {
	ctx, err := s.context()
	if err != nil {
		return "", err
	}
	path, err := runtime.SaveFileDialog(ctx, runtime.SaveDialogOptions{
		Title:                "Save",
		DefaultFilename:      filepath.Base(defaultName),
		CanCreateDirectories: true,
	})
	if err != nil || path == "" {
		return "", err
	}
	if err := os.WriteFile(path, data, 0o644); err != nil {
		return "", err
	}
	return path, nil
}

func (s *Shell) setContext(ctx context.Context) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.ctx = ctx
}

func (s *Shell) context() (context.Context, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.ctx == nil {
		return nil, errors.New("the window is not ready")
	}
	return s.ctx, nil
}
