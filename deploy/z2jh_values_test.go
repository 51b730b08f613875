package deploy_test

import (
	"fmt"
	"os"
	"path"
	"regexp"
	"slices"
	"sort"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"
)

// z2jhValuesFile is the Zero to JupyterHub values file of the README.
const z2jhValuesFile = "deploy/z2jh-values.yaml"

// z2jhKeys are the keys of the Zero to JupyterHub chart 4.4.0 (its
// values.yaml) that a course's values file may set, as dotted paths; a key
// whose value is free-form (hub.config, extra environment, ...) allows
// anything below it. The chart rejects unknown keys at install time; this
// list catches a misspelt key before that.
var z2jhKeys = []string{
	"singleuser.image.name", "singleuser.image.tag", "singleuser.image.pullPolicy", "singleuser.image.pullSecrets",
	"singleuser.uid", "singleuser.fsGid", "singleuser.cmd", "singleuser.defaultUrl", "singleuser.startTimeout",
	"singleuser.storage.type", "singleuser.storage.capacity", "singleuser.storage.homeMountPath",
	"singleuser.storage.dynamic.storageClass", "singleuser.storage.extraVolumes", "singleuser.storage.extraVolumeMounts",
	"singleuser.cpu.guarantee", "singleuser.cpu.limit", "singleuser.memory.guarantee", "singleuser.memory.limit",
	"singleuser.extraEnv", "singleuser.lifecycleHooks", "singleuser.profileList", "singleuser.nodeSelector",
	"singleuser.networkPolicy.enabled",
	"hub.config", "hub.extraConfig", "hub.db.type", "hub.db.pvc.storage",
	"proxy.service.type", "proxy.https", "ingress",
	"cull.enabled", "cull.timeout", "cull.every", "cull.maxAge", "cull.users",
	"prePuller.hook.enabled", "prePuller.continuous.enabled",
	"scheduling.userScheduler.enabled", "scheduling.podPriority.enabled", "scheduling.userPlaceholder.enabled",
	"scheduling.userPlaceholder.replicas",
}

// z2jhImage is what the values file must agree with: the image the
// Dockerfile builds and the files its set-up installs.
type z2jhImage struct {
	uid         string              // the Dockerfile's NB_UID
	home        string              // the notebook user's home, /home/${NB_USER}
	systemSetup bool                // the Dockerfile runs scripts/setup.sh --system
	files       func(string) bool   // whether a file of the repository exists
	singleuser  map[string][]string // command inside the image -> repository files it comes from
}

// checkZ2JHValues returns what is wrong with the values file src for img.
func checkZ2JHValues(src string, img z2jhImage) []string {
	var problems []string
	bad := func(format string, args ...any) { problems = append(problems, fmt.Sprintf(format, args...)) }
	var doc map[string]any
	if err := yaml.Unmarshal([]byte(src), &doc); err != nil {
		return []string{fmt.Sprintf("not YAML: %v", err)}
	}
	leaves := map[string]any{}
	var walk func(prefix string, v any)
	walk = func(prefix string, v any) {
		m, ok := v.(map[string]any)
		if !ok || len(m) == 0 || z2jhFreeForm(prefix) {
			leaves[prefix] = v
			return
		}
		for k, sub := range m {
			walk(strings.TrimPrefix(prefix+"."+k, "."), sub)
		}
	}
	walk("", doc)
	keys := make([]string, 0, len(leaves))
	for k := range leaves {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		if !z2jhKnown(k) {
			bad("%s: not a key this file may set in Zero to JupyterHub 4.4.0 (misspelt?)", k)
		}
	}
	str := func(key string) string {
		s, _ := leaves[key].(string)
		if n, ok := leaves[key].(int); ok {
			s = fmt.Sprint(n)
		}
		return s
	}

	// The image: named, with a fixed tag.
	if str("singleuser.image.name") == "" {
		bad("singleuser.image.name: want the image built from the Dockerfile, in the course's registry")
	}
	if tag := str("singleuser.image.tag"); tag == "" || tag == "latest" {
		bad("singleuser.image.tag = %q: want a fixed tag, so that every student gets the same build", tag)
	}
	// Its user.
	if uid := str("singleuser.uid"); uid != img.uid {
		bad("singleuser.uid = %q: want the image's notebook user, NB_UID %s", uid, img.uid)
	}
	if home := str("singleuser.storage.homeMountPath"); str("singleuser.storage.type") != "none" && home != img.home {
		bad("singleuser.storage.homeMountPath = %q: want the notebook user's home, %s", home, img.home)
	}
	// Its command: the shared install's single-user server, which gives a
	// student whose home is a fresh volume a copy of the lessons.
	var cmd []string
	switch c := leaves["singleuser.cmd"].(type) {
	case string:
		cmd = []string{c}
	case []any:
		for _, a := range c {
			cmd = append(cmd, fmt.Sprint(a))
		}
	}
	if len(cmd) == 0 {
		bad("singleuser.cmd: want the lessons' single-user command (the chart's default, jupyterhub-singleuser, finds no lessons in a new home volume)")
	} else if from, ok := img.singleuser[cmd[0]]; !ok {
		bad("singleuser.cmd = %q: want one of the image's single-user commands %q", cmd, slices.Sorted(mapKeys(img.singleuser)))
	} else {
		if !img.systemSetup {
			bad("singleuser.cmd = %q needs the shared install, but the Dockerfile does not run scripts/setup.sh --system", cmd)
		}
		for _, f := range from {
			if !img.files(f) {
				bad("singleuser.cmd = %q: %s, which set-up installs as that command, is missing", cmd, f)
			}
		}
	}
	// The JupyterLab page (the image's single-user server) of a lesson that
	// exists, in the student's copy.
	page, front := "/lab/tree/perceptron-lessons/", "JupyterLab"
	if u := str("singleuser.defaultUrl"); !strings.HasPrefix(u, page) {
		bad("singleuser.defaultUrl = %q: want the %s page of a lesson in the student's copy, %s...", u, front, page)
	} else if f := path.Clean(strings.TrimPrefix(u, page)); !img.files(f) {
		bad("singleuser.defaultUrl = %q: the repository has no %s", u, f)
	}
	return problems
}

// z2jhFreeForm reports whether the value at key is free-form (any keys).
func z2jhFreeForm(key string) bool {
	for _, k := range z2jhKeys {
		if k == key && slices.Contains([]string{"hub.config", "hub.extraConfig", "singleuser.extraEnv", "singleuser.lifecycleHooks", "singleuser.nodeSelector", "proxy.https", "ingress"}, k) {
			return true
		}
	}
	return false
}

func z2jhKnown(key string) bool {
	for _, k := range z2jhKeys {
		if key == k || (z2jhFreeForm(k) && strings.HasPrefix(key, k+".")) {
			return true
		}
	}
	return false
}

func mapKeys[V any](m map[string]V) func(func(string) bool) {
	return func(yield func(string) bool) {
		for k := range m {
			if !yield(k) {
				return
			}
		}
	}
}

// imageFacts reads what the values file must agree with from the
// Dockerfile and the repository.
func imageFacts(t *testing.T) z2jhImage {
	t.Helper()
	b, err := os.ReadFile("Dockerfile")
	if err != nil {
		t.Fatal(err)
	}
	ins, err := parseDockerfile(string(b))
	if err != nil {
		t.Fatalf("Dockerfile: %v", err)
	}
	args := map[string]string{}
	img := z2jhImage{
		files: func(p string) bool { _, err := os.Stat(p); return err == nil },
		// scripts/setup-system.sh installs scripts/system/lessons-singleuser
		// into its prefix (LESSONS_PREFIX, default /usr/local/lib/perceptron-lessons).
		singleuser: map[string][]string{
			"/usr/local/lib/perceptron-lessons/bin/lessons-singleuser": {"scripts/system/lessons-singleuser", "scripts/setup-system.sh"},
		},
	}
	for _, in := range ins {
		if m := argLine.FindStringSubmatch(in.args); in.cmd == "ARG" && m != nil {
			args[m[1]] = m[2]
		}
		if in.cmd == "RUN" && regexp.MustCompile(`scripts/setup\.sh\b.*\s--system(\s|$)`).MatchString(in.args) &&
			!strings.Contains(in.args, "LESSONS_PREFIX") {
			img.systemSetup = true
		}
	}
	img.uid = args["NB_UID"]
	img.home = "/home/" + args["NB_USER"]
	return img
}

// TestZ2JHValues checks the Zero to JupyterHub values file statically
// against the Dockerfile and the repository (see checkZ2JHValues): CI has
// no Kubernetes.
func TestZ2JHValues(t *testing.T) {
	b, err := os.ReadFile(z2jhValuesFile)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range checkZ2JHValues(string(b), imageFacts(t)) {
		t.Errorf("%s: %s", z2jhValuesFile, p)
	}
	// The hub must run the major version of the image's jupyterhub-singleuser:
	// the file names the image's pin, which the chart must match.
	lock, err := os.ReadFile(jupyterLock)
	if err != nil {
		t.Fatal(err)
	}
	pins, _ := readLock(string(lock))
	if v := pins["jupyterhub"]; !strings.Contains(string(b), "JupyterHub "+v) {
		t.Errorf("%s does not name the image's JupyterHub %s (%s), which the chart's hub must match", z2jhValuesFile, v, jupyterLock)
	}
}

// TestZ2JHValuesChecks shows that checkZ2JHValues finds each defect it
// looks for, by breaking the real values file one way at a time.
func TestZ2JHValuesChecks(t *testing.T) {
	b, err := os.ReadFile(z2jhValuesFile)
	if err != nil {
		t.Fatal(err)
	}
	good := string(b)
	img := imageFacts(t)
	img.systemSetup = true // the mutations below are of the values file alone
	if p := checkZ2JHValues(good, img); len(p) != 0 {
		t.Fatalf("the real values file has problems: %q", p)
	}
	sub := func(re, repl string) string {
		r := regexp.MustCompile(re)
		if !r.MatchString(good) {
			t.Fatalf("mutation %q does not apply to %s", re, z2jhValuesFile)
		}
		return r.ReplaceAllString(good, repl)
	}
	tests := []struct {
		name string
		src  string
		want string // substring of the first problem
	}{
		{"not YAML", "singleuser: [", "not YAML"},
		{"misspelt key", sub(`(?m)^  uid:`, "  UID:"), "singleuser.UID: not a key"},
		{"misspelt section", sub(`(?m)^cull:`, "culling:"), "culling.enabled: not a key"},
		{"no image", sub(`(?m)^    name: .*$`, ""), "singleuser.image.name"},
		{"latest", sub(`(?m)^    tag: .*$`, "    tag: latest"), "fixed tag"},
		{"other user", sub(`uid: 1000`, "uid: 1001"), "NB_UID 1000"},
		{"other home", sub(`homeMountPath: \S+`, "homeMountPath: /home/jovyan/work"), "notebook user's home"},
		{"default command", sub(`(?m)^  cmd: .*$`, ""), "singleuser.cmd"},
		{"other command", sub(`(?m)^  cmd: .*$`, "  cmd: jupyterhub-singleuser"), "single-user commands"},
		{"Notebook 6 page", sub(`/lab/tree/perceptron-lessons/`, "/notebooks/perceptron-lessons/"), "JupyterLab page"},
		{"missing lesson", sub(`00_start_here\.ipynb`, "00_start.ipynb"), "no notebooks/00_start.ipynb"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p := checkZ2JHValues(tc.src, img)
			if len(p) == 0 || !strings.Contains(p[0], tc.want) {
				t.Errorf("problems = %q, want the first to contain %q", p, tc.want)
			}
		})
	}
	t.Run("no shared install", func(t *testing.T) {
		img := img
		img.systemSetup = false
		if p := checkZ2JHValues(good, img); len(p) == 0 || !strings.Contains(p[0], "setup.sh --system") {
			t.Errorf("problems = %q, want one about scripts/setup.sh --system", p)
		}
	})
}
