/**
 * The built-in tools in every provider format, as JSON text (key order included). A change
 * here is a change to what models are sent: review the diff, then update this text.
 */
export const builtinSnapshot = `[
  {
    "openaiChat": {
      "type": "function",
      "function": {
        "name": "bash",
        "description": "Run a command in bash and return its output (stdout and stderr) and exit status.",
        "parameters": {
          "type": "object",
          "properties": {
            "description": {
              "type": "string",
              "description": "A short description of what the command does, in 5–10 words, shown to the user while it runs. Provide description before command in the arguments."
            },
            "command": {
              "type": "string",
              "description": "The bash command to run."
            },
            "timeout": {
              "type": "integer",
              "description": "Stop the command after this many milliseconds.",
              "minimum": 1
            }
          },
          "required": [
            "description",
            "command"
          ],
          "additionalProperties": false
        }
      }
    },
    "openaiResponses": {
      "type": "function",
      "name": "bash",
      "description": "Run a command in bash and return its output (stdout and stderr) and exit status.",
      "parameters": {
        "type": "object",
        "properties": {
          "description": {
            "type": "string",
            "description": "A short description of what the command does, in 5–10 words, shown to the user while it runs. Provide description before command in the arguments."
          },
          "command": {
            "type": "string",
            "description": "The bash command to run."
          },
          "timeout": {
            "type": "integer",
            "description": "Stop the command after this many milliseconds.",
            "minimum": 1
          }
        },
        "required": [
          "description",
          "command"
        ],
        "additionalProperties": false
      },
      "strict": false
    },
    "anthropic": {
      "name": "bash",
      "description": "Run a command in bash and return its output (stdout and stderr) and exit status.",
      "input_schema": {
        "type": "object",
        "properties": {
          "description": {
            "type": "string",
            "description": "A short description of what the command does, in 5–10 words, shown to the user while it runs. Provide description before command in the arguments."
          },
          "command": {
            "type": "string",
            "description": "The bash command to run."
          },
          "timeout": {
            "type": "integer",
            "description": "Stop the command after this many milliseconds.",
            "minimum": 1
          }
        },
        "required": [
          "description",
          "command"
        ],
        "additionalProperties": false
      }
    }
  },
  {
    "openaiChat": {
      "type": "function",
      "function": {
        "name": "pwsh",
        "description": "Run a command in PowerShell (pwsh) and return its output and exit status.",
        "parameters": {
          "type": "object",
          "properties": {
            "description": {
              "type": "string",
              "description": "A short description of what the command does, in 5–10 words, shown to the user while it runs. Provide description before command in the arguments."
            },
            "command": {
              "type": "string",
              "description": "The PowerShell command to run."
            },
            "timeout": {
              "type": "integer",
              "description": "Stop the command after this many milliseconds.",
              "minimum": 1
            }
          },
          "required": [
            "description",
            "command"
          ],
          "additionalProperties": false
        }
      }
    },
    "openaiResponses": {
      "type": "function",
      "name": "pwsh",
      "description": "Run a command in PowerShell (pwsh) and return its output and exit status.",
      "parameters": {
        "type": "object",
        "properties": {
          "description": {
            "type": "string",
            "description": "A short description of what the command does, in 5–10 words, shown to the user while it runs. Provide description before command in the arguments."
          },
          "command": {
            "type": "string",
            "description": "The PowerShell command to run."
          },
          "timeout": {
            "type": "integer",
            "description": "Stop the command after this many milliseconds.",
            "minimum": 1
          }
        },
        "required": [
          "description",
          "command"
        ],
        "additionalProperties": false
      },
      "strict": false
    },
    "anthropic": {
      "name": "pwsh",
      "description": "Run a command in PowerShell (pwsh) and return its output and exit status.",
      "input_schema": {
        "type": "object",
        "properties": {
          "description": {
            "type": "string",
            "description": "A short description of what the command does, in 5–10 words, shown to the user while it runs. Provide description before command in the arguments."
          },
          "command": {
            "type": "string",
            "description": "The PowerShell command to run."
          },
          "timeout": {
            "type": "integer",
            "description": "Stop the command after this many milliseconds.",
            "minimum": 1
          }
        },
        "required": [
          "description",
          "command"
        ],
        "additionalProperties": false
      }
    }
  },
  {
    "openaiChat": {
      "type": "function",
      "function": {
        "name": "run_code",
        "description": "Run a short TypeScript or Python program and return what it prints.",
        "parameters": {
          "type": "object",
          "properties": {
            "description": {
              "type": "string",
              "description": "A short description of what the program does, in 5–10 words, shown to the user while it runs. Provide description before code in the arguments."
            },
            "language": {
              "type": "string",
              "description": "The language of the program.",
              "enum": [
                "typescript",
                "python"
              ]
            },
            "code": {
              "type": "string",
              "description": "The complete program. It runs in a fresh process; print whatever you need to see."
            }
          },
          "required": [
            "description",
            "language",
            "code"
          ],
          "additionalProperties": false
        }
      }
    },
    "openaiResponses": {
      "type": "function",
      "name": "run_code",
      "description": "Run a short TypeScript or Python program and return what it prints.",
      "parameters": {
        "type": "object",
        "properties": {
          "description": {
            "type": "string",
            "description": "A short description of what the program does, in 5–10 words, shown to the user while it runs. Provide description before code in the arguments."
          },
          "language": {
            "type": "string",
            "description": "The language of the program.",
            "enum": [
              "typescript",
              "python"
            ]
          },
          "code": {
            "type": "string",
            "description": "The complete program. It runs in a fresh process; print whatever you need to see."
          }
        },
        "required": [
          "description",
          "language",
          "code"
        ],
        "additionalProperties": false
      },
      "strict": false
    },
    "anthropic": {
      "name": "run_code",
      "description": "Run a short TypeScript or Python program and return what it prints.",
      "input_schema": {
        "type": "object",
        "properties": {
          "description": {
            "type": "string",
            "description": "A short description of what the program does, in 5–10 words, shown to the user while it runs. Provide description before code in the arguments."
          },
          "language": {
            "type": "string",
            "description": "The language of the program.",
            "enum": [
              "typescript",
              "python"
            ]
          },
          "code": {
            "type": "string",
            "description": "The complete program. It runs in a fresh process; print whatever you need to see."
          }
        },
        "required": [
          "description",
          "language",
          "code"
        ],
        "additionalProperties": false
      }
    }
  },
  {
    "openaiChat": {
      "type": "function",
      "function": {
        "name": "write",
        "description": "Write a file: create it, or replace all of its contents.",
        "parameters": {
          "type": "object",
          "properties": {
            "file_path": {
              "type": "string",
              "description": "The absolute path of the file to write. Provide file_path before content in the arguments."
            },
            "content": {
              "type": "string",
              "description": "The complete new contents of the file."
            }
          },
          "required": [
            "file_path",
            "content"
          ],
          "additionalProperties": false
        }
      }
    },
    "openaiResponses": {
      "type": "function",
      "name": "write",
      "description": "Write a file: create it, or replace all of its contents.",
      "parameters": {
        "type": "object",
        "properties": {
          "file_path": {
            "type": "string",
            "description": "The absolute path of the file to write. Provide file_path before content in the arguments."
          },
          "content": {
            "type": "string",
            "description": "The complete new contents of the file."
          }
        },
        "required": [
          "file_path",
          "content"
        ],
        "additionalProperties": false
      },
      "strict": false
    },
    "anthropic": {
      "name": "write",
      "description": "Write a file: create it, or replace all of its contents.",
      "input_schema": {
        "type": "object",
        "properties": {
          "file_path": {
            "type": "string",
            "description": "The absolute path of the file to write. Provide file_path before content in the arguments."
          },
          "content": {
            "type": "string",
            "description": "The complete new contents of the file."
          }
        },
        "required": [
          "file_path",
          "content"
        ],
        "additionalProperties": false
      }
    }
  },
  {
    "openaiChat": {
      "type": "function",
      "function": {
        "name": "edit",
        "description": "Replace exact text in a file.",
        "parameters": {
          "type": "object",
          "properties": {
            "file_path": {
              "type": "string",
              "description": "The absolute path of the file to edit. Provide file_path before old_string and new_string in the arguments."
            },
            "old_string": {
              "type": "string",
              "description": "The exact text to replace. It must occur in the file exactly once unless replace_all is true."
            },
            "new_string": {
              "type": "string",
              "description": "The text to put in its place."
            },
            "replace_all": {
              "type": "boolean",
              "description": "Replace every occurrence of old_string."
            }
          },
          "required": [
            "file_path",
            "old_string",
            "new_string"
          ],
          "additionalProperties": false
        }
      }
    },
    "openaiResponses": {
      "type": "function",
      "name": "edit",
      "description": "Replace exact text in a file.",
      "parameters": {
        "type": "object",
        "properties": {
          "file_path": {
            "type": "string",
            "description": "The absolute path of the file to edit. Provide file_path before old_string and new_string in the arguments."
          },
          "old_string": {
            "type": "string",
            "description": "The exact text to replace. It must occur in the file exactly once unless replace_all is true."
          },
          "new_string": {
            "type": "string",
            "description": "The text to put in its place."
          },
          "replace_all": {
            "type": "boolean",
            "description": "Replace every occurrence of old_string."
          }
        },
        "required": [
          "file_path",
          "old_string",
          "new_string"
        ],
        "additionalProperties": false
      },
      "strict": false
    },
    "anthropic": {
      "name": "edit",
      "description": "Replace exact text in a file.",
      "input_schema": {
        "type": "object",
        "properties": {
          "file_path": {
            "type": "string",
            "description": "The absolute path of the file to edit. Provide file_path before old_string and new_string in the arguments."
          },
          "old_string": {
            "type": "string",
            "description": "The exact text to replace. It must occur in the file exactly once unless replace_all is true."
          },
          "new_string": {
            "type": "string",
            "description": "The text to put in its place."
          },
          "replace_all": {
            "type": "boolean",
            "description": "Replace every occurrence of old_string."
          }
        },
        "required": [
          "file_path",
          "old_string",
          "new_string"
        ],
        "additionalProperties": false
      }
    }
  },
  {
    "openaiChat": {
      "type": "function",
      "function": {
        "name": "read",
        "description": "Read a text file, or a range of its lines.",
        "parameters": {
          "type": "object",
          "properties": {
            "file_path": {
              "type": "string",
              "description": "The absolute path of the file to read."
            },
            "offset": {
              "type": "integer",
              "description": "The first line to read (1-based).",
              "minimum": 1
            },
            "limit": {
              "type": "integer",
              "description": "How many lines to read.",
              "minimum": 1
            }
          },
          "required": [
            "file_path"
          ],
          "additionalProperties": false
        }
      }
    },
    "openaiResponses": {
      "type": "function",
      "name": "read",
      "description": "Read a text file, or a range of its lines.",
      "parameters": {
        "type": "object",
        "properties": {
          "file_path": {
            "type": "string",
            "description": "The absolute path of the file to read."
          },
          "offset": {
            "type": "integer",
            "description": "The first line to read (1-based).",
            "minimum": 1
          },
          "limit": {
            "type": "integer",
            "description": "How many lines to read.",
            "minimum": 1
          }
        },
        "required": [
          "file_path"
        ],
        "additionalProperties": false
      },
      "strict": false
    },
    "anthropic": {
      "name": "read",
      "description": "Read a text file, or a range of its lines.",
      "input_schema": {
        "type": "object",
        "properties": {
          "file_path": {
            "type": "string",
            "description": "The absolute path of the file to read."
          },
          "offset": {
            "type": "integer",
            "description": "The first line to read (1-based).",
            "minimum": 1
          },
          "limit": {
            "type": "integer",
            "description": "How many lines to read.",
            "minimum": 1
          }
        },
        "required": [
          "file_path"
        ],
        "additionalProperties": false
      }
    }
  }
]`;
