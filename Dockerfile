# Image for the perceptron lessons, for `docker build` and for Binder
# (repo2docker uses this Dockerfile as is). See README, "Docker and Binder".
#
# A dated tag of the Jupyter Docker Stacks base image (never "latest"): Jupyter
# Notebook, nbconvert and nbclient on /opt/conda, and the notebook user
# jovyan with UID 1000, as Binder requires.
FROM quay.io/jupyter/base-notebook:2025-03-14

ARG NB_USER=jovyan
ARG NB_UID=1000

# Go, pinned. The archive is Go's official linux-amd64 distribution as the Go
# module proxy serves it (module golang.org/toolchain, the download `go`
# itself uses for GOTOOLCHAIN switches). Its SHA-256 below was computed from
# the zip that `go mod download` fetched and verified against the Go checksum
# database (go.sum hash h1:ZOmGe1OnfREDMIdb1Qi4G9JSuDPBLGExZMQ4nis1RXM=).
ARG GO_VERSION=1.26.8
ARG GO_SHA256=30c2b1bf7dcc88d3eb0a1364e47ddd9128edb3110a30e8a0ef61cd5856b31de7

USER root
RUN apt-get update -q \
 && apt-get install -y -q --no-install-recommends ca-certificates unzip wget \
 && rm -rf /var/lib/apt/lists/* \
 && wget -q -O /tmp/go.zip "https://proxy.golang.org/golang.org/toolchain/@v/v0.0.1-go${GO_VERSION}.linux-amd64.zip" \
 && echo "${GO_SHA256}  /tmp/go.zip" | sha256sum -c - \
 && unzip -q /tmp/go.zip -d /tmp/go \
 && mv "/tmp/go/golang.org/toolchain@v0.0.1-go${GO_VERSION}.linux-amd64" /usr/local/go \
 && chmod -R a+rX /usr/local/go \
 && chmod a+x /usr/local/go/bin/* /usr/local/go/pkg/tool/linux_amd64/* \
 && rm -rf /tmp/go /tmp/go.zip \
 && /usr/local/go/bin/go version

ENV PATH=/usr/local/go/bin:${HOME}/go/bin:${PATH} \
    JUPYTER_PYTHON=/opt/conda/bin/python \
    GOTOOLCHAIN=local

# The repository, owned by the notebook user, in its home.
USER ${NB_UID}
COPY --chown=${NB_UID}:${NB_GID} . ${HOME}
WORKDIR ${HOME}

# The same set-up as the README's commands: GoNB and goimports from go.mod's
# tool block into ~/bin, the gonb kernel registered for jovyan. Jupyter is
# already in the image, so it installs no system package.
RUN bash scripts/setup.sh --no-apt

# Warm start: download and compile every dependency, then run the first
# notebook once headless so GoNB's cells (gonum/plot included) are in Go's
# build cache. Go deletes cache entries unused for 5 days when it trims the
# cache (cmd/go/internal/cache: Trim, trimLimit); an image is often older than
# that, so the entries are given a modification time far in the future, which
# Trim never reaches and which `go` does not reset when it reuses them. (A
# future date in trim.txt does not work: Go ignores a last-trim time that is
# more than an hour ahead and trims anyway.)
RUN go build ./... \
 && jupyter nbconvert --to notebook --execute --output-dir /tmp/warm notebooks/00_start_here.ipynb \
 && rm -rf /tmp/warm \
 && find "$(go env GOCACHE)" -type f -name '*-[ad]' -exec touch -c -m -d '2100-01-01 00:00:00' {} +

# `docker run -p 8888:8888 IMAGE` starts the lessons with the README's first
# command, listening on all interfaces inside the container. Binder replaces
# this command with its own `jupyter notebook`, which finds the same kernel.
EXPOSE 8888
CMD ["bash", "scripts/lessons.sh", "--ip", "0.0.0.0", "--port", "8888", "--no-browser", "--no-apt"]
