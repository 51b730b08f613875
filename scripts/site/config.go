package main

import (
	"bytes"
	"fmt"
	"net/url"
	"os"
	"path"
	"regexp"
	"strings"

	"go.yaml.in/yaml/v3"
)

// config is the site's configuration file (scripts/site/site.yaml in the repository.s
// root): where the pages' "open a live copy" links go.
type config struct {
	Title  string `yaml:"title"`
	Binder struct {
		Repository string `yaml:"repository"` // GitHub owner/name
		Ref        string `yaml:"ref"`
	} `yaml:"binder"`
	Hub struct {
		URL        string `yaml:"url"`        // the class hub's address; "" for no hub link
		Repository string `yaml:"repository"` // the git repository nbgitpuller pulls
		Branch     string `yaml:"branch"`
	} `yaml:"hub"`
}

var ownerName = regexp.MustCompile(`^[A-Za-z0-9_.-]+/[A-Za-z0-9_.-]+$`)

// readConfig reads and checks the configuration file.
func readConfig(file string) (*config, error) {
	b, err := os.ReadFile(file)
	if err != nil {
		return nil, err
	}
	var c config
	dec := yaml.NewDecoder(bytes.NewReader(b))
	dec.KnownFields(true)
	if err := dec.Decode(&c); err != nil {
		return nil, fmt.Errorf("%s: %w", file, err)
	}
	if err := c.check(); err != nil {
		return nil, fmt.Errorf("%s: %w", file, err)
	}
	return &c, nil
}

func (c *config) check() error {
	if c.Title == "" {
		c.Title = "The perceptron, in Go"
	}
	if !ownerName.MatchString(c.Binder.Repository) {
		return fmt.Errorf("binder.repository %q: want the GitHub repository as owner/name", c.Binder.Repository)
	}
	if c.Binder.Ref == "" {
		return fmt.Errorf("binder.ref is empty: want a branch, tag or commit")
	}
	if c.Hub.URL == "" {
		return nil
	}
	u, err := url.Parse(c.Hub.URL)
	if err != nil || (u.Scheme != "https" && u.Scheme != "http") || u.Host == "" || u.RawQuery != "" || u.Fragment != "" {
		return fmt.Errorf("hub.url %q: want the hub's address, such as https://hub.example.org", c.Hub.URL)
	}
	r, err := url.Parse(c.Hub.Repository)
	if err != nil || r.Scheme == "" || r.Host == "" || strings.Trim(r.Path, "/") == "" {
		return fmt.Errorf("hub.repository %q: want the URL of the git repository that students pull (the student release)", c.Hub.Repository)
	}
	if c.Hub.Branch == "" {
		return fmt.Errorf("hub.branch is empty: want the branch that students pull")
	}
	return nil
}

// binderURL opens the notebook (notebooks/NAME.ipynb) in JupyterLab on
// Binder, as the instructor's guide's link does.
func (c *config) binderURL(notebook string) string {
	return "https://mybinder.org/v2/gh/" + c.Binder.Repository + "/" + url.PathEscape(c.Binder.Ref) +
		"?labpath=" + url.QueryEscape(notebook)
}

// hubURL is the nbgitpuller link that pulls hub.repository into the
// student's home on the class hub (into a folder named after the
// repository, nbgitpuller's default targetpath) and opens the notebook in JupyterLab;
// "" when no hub is set.
func (c *config) hubURL(notebook string) string {
	if c.Hub.URL == "" {
		return ""
	}
	// nbgitpuller's folder: the repository URL's last element, as it is
	// (a .git stays), after any trailing slash.
	dir := path.Base(strings.TrimRight(c.Hub.Repository, "/"))
	return strings.TrimRight(c.Hub.URL, "/") + "/hub/user-redirect/git-pull?repo=" + url.QueryEscape(c.Hub.Repository) +
		"&branch=" + url.QueryEscape(c.Hub.Branch) + "&urlpath=" + url.QueryEscape("lab/tree/"+dir+"/"+notebook)
}

// SourceURL is the page of a file of the repository on GitHub.
func (c *config) SourceURL(file string) string {
	return "https://github.com/" + c.Binder.Repository + "/blob/" + url.PathEscape(c.Binder.Ref) + "/" + file
}
