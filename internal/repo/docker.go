package repo

import (
	"bufio"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
)

// The parts of TestDockerImage (e2e/) that need no image builder: the image's
// command moved to a local port, and the Debian mirror debootstrap uses.

// LocalCommand turns the image's command, which serves on 0.0.0.0:8888 for
// `docker run -p 8888:8888`, into the same command on 127.0.0.1:port.
func LocalCommand(cmd []string, port int) ([]string, error) {
	out := slices.Clone(cmd)
	var ip, p bool
	for i := 0; i+1 < len(out); i++ {
		switch {
		case out[i] == "--ip" && out[i+1] == "0.0.0.0":
			out[i+1], ip = "127.0.0.1", true
		case out[i] == "--port" && out[i+1] == "8888":
			out[i+1], p = strconv.Itoa(port), true
		}
	}
	if !ip || !p {
		return nil, fmt.Errorf("want a command that serves on --ip 0.0.0.0 --port 8888 (the port the README's docker run publishes)")
	}
	return out, nil
}

// AptMirror returns the first Debian mirror that apt's sources under etc
// (sources.list, sources.list.d/*.list and *.sources) list for suite, or
// Debian's default mirror when there is none.
func AptMirror(etc, suite string) (string, error) {
	files := []string{filepath.Join(etc, "sources.list")}
	for _, pat := range []string{"*.list", "*.sources"} {
		m, err := filepath.Glob(filepath.Join(etc, "sources.list.d", pat))
		if err != nil {
			return "", err
		}
		slices.Sort(m)
		files = append(files, m...)
	}
	for _, f := range files {
		b, err := os.ReadFile(f)
		if os.IsNotExist(err) {
			continue
		} else if err != nil {
			return "", err
		}
		var uri string
		if strings.HasSuffix(f, ".sources") {
			uri = deb822Mirror(string(b), suite)
		} else {
			uri = oneLineMirror(string(b), suite)
		}
		if uri != "" {
			return uri, nil
		}
	}
	return "http://deb.debian.org/debian", nil
}

// oneLineMirror returns the URI of the first "deb [options] URI suite
// component..." line of a sources.list for suite.
func oneLineMirror(src, suite string) string {
	for _, line := range strings.Split(src, "\n") {
		line, _, _ = strings.Cut(line, "#")
		f := strings.Fields(line)
		if len(f) == 0 || f[0] != "deb" {
			continue
		}
		f = f[1:]
		if len(f) > 0 && strings.HasPrefix(f[0], "[") {
			for len(f) > 0 && !strings.HasSuffix(f[0], "]") {
				f = f[1:]
			}
			if len(f) > 0 {
				f = f[1:]
			}
		}
		if len(f) >= 3 && f[1] == suite && isHTTP(f[0]) {
			return f[0]
		}
	}
	return ""
}

// deb822Mirror returns the first URI of the first enabled stanza of a
// .sources file (deb822 format) with type deb and suite among its suites.
func deb822Mirror(src, suite string) string {
	for _, stanza := range strings.Split(strings.ReplaceAll(src, "\r\n", "\n"), "\n\n") {
		fields := map[string]string{}
		key := ""
		sc := bufio.NewScanner(strings.NewReader(stanza))
		for sc.Scan() {
			line := sc.Text()
			if strings.HasPrefix(line, "#") || strings.TrimSpace(line) == "" {
				continue
			}
			if (line[0] == ' ' || line[0] == '\t') && key != "" {
				fields[key] += " " + strings.TrimSpace(line)
				continue
			}
			k, v, ok := strings.Cut(line, ":")
			if !ok {
				continue
			}
			key = strings.ToLower(strings.TrimSpace(k))
			fields[key] = strings.TrimSpace(v)
		}
		if strings.EqualFold(fields["enabled"], "no") ||
			!slices.Contains(strings.Fields(fields["types"]), "deb") ||
			!slices.Contains(strings.Fields(fields["suites"]), suite) {
			continue
		}
		for _, uri := range strings.Fields(fields["uris"]) {
			if isHTTP(uri) {
				return uri
			}
		}
	}
	return ""
}

func isHTTP(uri string) bool {
	u, err := url.Parse(uri)
	return err == nil && (u.Scheme == "http" || u.Scheme == "https") && u.Host != ""
}
