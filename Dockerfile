# Image for the perceptron lessons: `docker build` / `podman build`, Binder
# (repo2docker builds this Dockerfile as is) and Zero to JupyterHub
# (deploy/z2jh-values.yaml). See docs/instructor.md, "Docker, Binder and Kubernetes".
# CI builds and runs this very file (TestDockerImage, e2e/docker_image_test.go).
#
# Debian 12, as on the machines the lessons are developed and tested on:
# Go from the Go module proxy, then the README's own set-up script in its
# shared mode (the pinned Jupyter environment from PyPI: JupyterLab 4.6,
# Notebook 7, jupyter_server 2, JupyterHub 5.5, nbgitpuller; GoNB and the gonb
# kernel).
FROM debian:bookworm-slim

# The notebook user: Binder (repo2docker) passes NB_USER and NB_UID as build
# arguments and needs UID 1000, with the repository in that user's home.
ARG NB_USER=jovyan
ARG NB_UID=1000

# Go, pinned: the release go.mod's toolchain line names (TestDockerfile
# checks they agree), the latest Go 1.26 patch release on the Go module proxy
# (`go list -m -versions golang.org/toolchain`). The archive is Go's official
# linux-amd64 distribution as module golang.org/toolchain, the download `go`
# itself uses for GOTOOLCHAIN switches. Its SHA-256 below was computed from
# the zip that `go mod download` fetched and verified against the Go checksum
# database (go.sum hash h1:KyINmJ/FQdKRmDYGuTAAXkumyeR2DyUlSNHZj7XaLFg=).
ARG GO_VERSION=1.26.11
ARG GO_SHA256=e1edb778de0aa08c8e827f5a873b35a46afe680fb241482c531725b2355e470d

ENV LANG=C.UTF-8 \
    USER=${NB_USER} \
    HOME=/home/${NB_USER} \
    GOTOOLCHAIN=local \
    PYDEVD_DISABLE_FILE_VALIDATION=1
# The Jupyter environment's commands (python3, jupyter, jupyter-lab,
# jupyterhub-singleuser) and the shared install's (gonb,
# perceptron-lessons-init, lessons-singleuser) on PATH: Binder runs
# `jupyter-lab` when the python3 on PATH imports jupyterlab 3 or later.
ENV PATH=/usr/local/lib/perceptron-lessons/venv/bin:/usr/local/lib/perceptron-lessons/bin:/usr/local/go/bin:${PATH}

USER root
# No manual pages, documentation or translations: nothing a student opens in
# a container (the copyright files stay). debian:bookworm-slim excludes most
# of them already; this makes it explicit for every base.
RUN printf '%s\n' 'path-exclude /usr/share/doc/*' 'path-include /usr/share/doc/*/copyright' \
      'path-exclude /usr/share/man/*' 'path-exclude /usr/share/info/*' \
      'path-exclude /usr/share/locale/*' 'path-include /usr/share/locale/locale.alias' \
      >/etc/dpkg/dpkg.cfg.d/01-perceptron-lessons \
 && useradd --create-home --uid "${NB_UID}" --shell /bin/bash "${NB_USER}"

# Go, checked against its SHA-256 before it is unpacked.
RUN export DEBIAN_FRONTEND=noninteractive \
 && apt-get update -q \
 && apt-get install -y -q --no-install-recommends ca-certificates curl unzip \
 && curl -fsSL -o /tmp/go.zip "https://proxy.golang.org/golang.org/toolchain/@v/v0.0.1-go${GO_VERSION}.linux-amd64.zip" \
 && echo "${GO_SHA256}  /tmp/go.zip" | sha256sum -c - \
 && unzip -q /tmp/go.zip -d /tmp/go \
 && mv "/tmp/go/golang.org/toolchain@v0.0.1-go${GO_VERSION}.linux-amd64" /usr/local/go \
 && rm -rf /tmp/go /tmp/go.zip /usr/local/go/test /usr/local/go/api /usr/local/go/doc \
 && chmod -R a+rX /usr/local/go \
 && chmod a+x /usr/local/go/bin/* /usr/local/go/pkg/tool/linux_amd64/* \
 && go version \
 && apt-get purge -y -q --auto-remove curl unzip \
 && rm -rf /var/lib/apt/lists/*

# The repository, owned by the notebook user, in its home, as students may
# have it: .dockerignore leaves out every assignment's source.ipynb and
# solution.ipynb and the grader, lessons/assign (docs/instructor.md, "What students get,
# and releasing solutions").
COPY --chown=${NB_UID}:${NB_UID} . ${HOME}
WORKDIR ${HOME}

# The README's set-up, in its shared mode, as for a class on one server
# (docs/instructor.md, "A class on one server"): python3-venv from apt, the pinned
# Jupyter environment from PyPI (scripts/requirements/jupyter.txt, checked against its
# hashes), GoNB, goimports and gopls, the gonb kernel for every user (and the
# default kernel), the Go module cache read-only and a prebuilt Go build
# cache, all under /usr/local/lib/perceptron-lessons. --no-hub: the image is
# each student's server (Binder, Zero to JupyterHub), whose hub runs
# elsewhere, so no proxy and no node. Then root's caches go and bin/ is
# handed to the notebook user. (HOME is root's own here: the image's HOME is
# the notebook user's, where Go would otherwise put root's module cache,
# inside the repository.)
RUN HOME=/root bash scripts/setup.sh --system --no-hub \
 && apt-get clean \
 && rm -rf /var/lib/apt/lists/* /root/go /root/.cache \
 && chown -R "${NB_UID}:${NB_UID}" "${HOME}"

# The notebook user's copy of the lessons is the repository in its home: its
# Go build cache is filled from the shared one and the module compiled in
# place (perceptron-lessons-init, as for every user of a shared install).
# Then, warm start: the first notebook runs once headless, so that GoNB's
# cells find all they need compiled.
# Go deletes cache entries unused for 5 days when it trims the cache
# (cmd/go/internal/cache: Trim, trimLimit); an image is often older than
# that, so the entries are given a modification time far in the future, which
# Trim never reaches and which `go` does not reset when it reuses them. (A
# future date in trim.txt does not work: Go ignores a last-trim time that is
# more than an hour ahead and trims anyway.)
USER ${NB_UID}
RUN /usr/local/lib/perceptron-lessons/bin/perceptron-lessons-init "${HOME}" \
 && . /usr/local/lib/perceptron-lessons/lib/lessons-env.sh \
 && go build ./... \
 && jupyter nbconvert --to notebook --execute --output-dir /tmp/warm notebooks/00_start_here.ipynb \
 && rm -rf /tmp/warm \
 && find "$(go env GOCACHE)" -type f -name '*-[ad]' -exec touch -c -m -d '2100-01-01 00:00:00' {} +

# `docker run -p 8888:8888 IMAGE` serves the lessons in JupyterLab on all
# interfaces of the container and opens lesson 00; open the URL with the
# token that it prints. Binder starts jupyter-lab itself (see PATH above) and
# JupyterHub (deploy/z2jh-values.yaml) lessons-singleuser; all find the same
# kernel and the same JupyterLab.
EXPOSE 8888
CMD ["jupyter-lab", "--ip", "0.0.0.0", "--port", "8888", "--no-browser", "--LabApp.default_url=/lab/tree/notebooks/00_start_here.ipynb"]
