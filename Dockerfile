FROM python:3.11-slim
WORKDIR /app
COPY pyproject.toml setup.py README.md ./
COPY events events
COPY engine engine
COPY server server
COPY clients clients
RUN pip install --no-cache-dir '.[fast]'
EXPOSE 8765
CMD ["umpire", "serve"]
