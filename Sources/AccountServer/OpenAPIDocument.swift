/// The OpenAPI 3.1 document of every route, served at `/openapi.json` and committed as
/// `docs/openapi.json` (a test keeps the two the same and checks that the router has exactly
/// these operations; schemathesis checks live answers against it in CI).
enum OpenAPIDocument {
    static let json = #"""
        {
          "components": {
            "schemas": {
              "ChangePasswordRequest": {
                "properties": {
                  "confirmation": {
                    "description": "The new password again; the new password itself when left out.",
                    "type": "string"
                  },
                  "current_password": {
                    "type": "string"
                  },
                  "new_password": {
                    "description": "The password rules of sign-up; not the current one.",
                    "maxLength": 128,
                    "minLength": 8,
                    "type": "string"
                  }
                },
                "required": [
                  "current_password",
                  "new_password"
                ],
                "type": "object"
              },
              "Done": {
                "properties": {
                  "ok": {
                    "const": true
                  }
                },
                "required": [
                  "ok"
                ],
                "type": "object"
              },
              "Failure": {
                "properties": {
                  "code": {
                    "description": "A stable error code, as `accounts … --json` prints.",
                    "type": "string"
                  },
                  "message": {
                    "type": "string"
                  },
                  "ok": {
                    "const": false
                  }
                },
                "required": [
                  "ok",
                  "code",
                  "message"
                ],
                "type": "object"
              },
              "Health": {
                "properties": {
                  "backend": {
                    "type": "string"
                  },
                  "ok": {
                    "const": true
                  }
                },
                "required": [
                  "ok",
                  "backend"
                ],
                "type": "object"
              },
              "LoginRequest": {
                "properties": {
                  "email": {
                    "description": "The ID.",
                    "pattern": "^[a-z][a-z0-9]{5,19}@([A-Za-z0-9]([A-Za-z0-9-]*[A-Za-z0-9])?\\.)+[A-Za-z]{2,}$",
                    "type": "string"
                  },
                  "password": {
                    "type": "string"
                  },
                  "remember": {
                    "type": "boolean"
                  }
                },
                "required": [
                  "email",
                  "password"
                ],
                "type": "object"
              },
              "Me": {
                "properties": {
                  "ok": {
                    "const": true
                  },
                  "user": {
                    "$ref": "#/components/schemas/User"
                  },
                  "welcome": {
                    "description": "\"{nickname} 님 환영합니다.\" or \"Welcome, {nickname}.\"",
                    "type": "string"
                  }
                },
                "required": [
                  "ok",
                  "user",
                  "welcome"
                ],
                "type": "object"
              },
              "Session": {
                "properties": {
                  "expires_at_ms": {
                    "type": "integer"
                  },
                  "ok": {
                    "const": true
                  },
                  "token": {
                    "description": "The bearer token; only its SHA-256 is stored.",
                    "pattern": "^[0-9a-f]{64}$",
                    "type": "string"
                  },
                  "user": {
                    "$ref": "#/components/schemas/User"
                  }
                },
                "required": [
                  "ok",
                  "token",
                  "expires_at_ms",
                  "user"
                ],
                "type": "object"
              },
              "SignUpRequest": {
                "properties": {
                  "confirmation": {
                    "description": "The password again; the password itself when left out.",
                    "type": "string"
                  },
                  "email": {
                    "description": "The ID: 6 to 20 lowercase letters and digits before '@', not starting with a digit; a domain of two or more labels.",
                    "pattern": "^[a-z][a-z0-9]{5,19}@([A-Za-z0-9]([A-Za-z0-9-]*[A-Za-z0-9])?\\.)+[A-Za-z]{2,}$",
                    "type": "string"
                  },
                  "nickname": {
                    "description": "2 to 20 characters after trimming.",
                    "maxLength": 20,
                    "minLength": 2,
                    "type": "string"
                  },
                  "password": {
                    "description": "8 to 128 characters (after NFKC), hard to guess (zxcvbn), not containing the ID or the nickname: rules beyond this schema.",
                    "maxLength": 128,
                    "minLength": 8,
                    "type": "string"
                  },
                  "remember": {
                    "description": "Make the session last as long as a remembered login.",
                    "type": "boolean"
                  }
                },
                "required": [
                  "email",
                  "password",
                  "nickname"
                ],
                "type": "object"
              },
              "StrapiAuth": {
                "properties": {
                  "jwt": {
                    "description": "An opaque session token the server can revoke, not a JWT.",
                    "pattern": "^[0-9a-f]{64}$",
                    "type": "string"
                  },
                  "user": {
                    "$ref": "#/components/schemas/StrapiUser"
                  }
                },
                "required": [
                  "jwt",
                  "user"
                ],
                "type": "object"
              },
              "StrapiChangePasswordRequest": {
                "properties": {
                  "currentPassword": {
                    "type": "string"
                  },
                  "password": {
                    "description": "The password rules of sign-up; not the current one.",
                    "maxLength": 128,
                    "minLength": 8,
                    "type": "string"
                  },
                  "passwordConfirmation": {
                    "type": "string"
                  }
                },
                "required": [
                  "currentPassword",
                  "password",
                  "passwordConfirmation"
                ],
                "type": "object"
              },
              "StrapiFailure": {
                "properties": {
                  "data": {
                    "type": "null"
                  },
                  "error": {
                    "properties": {
                      "details": {
                        "properties": {
                          "code": {
                            "type": "string"
                          }
                        },
                        "type": "object"
                      },
                      "message": {
                        "type": "string"
                      },
                      "name": {
                        "type": "string"
                      },
                      "status": {
                        "type": "integer"
                      }
                    },
                    "required": [
                      "status",
                      "name",
                      "message",
                      "details"
                    ],
                    "type": "object"
                  }
                },
                "required": [
                  "data",
                  "error"
                ],
                "type": "object"
              },
              "StrapiLoginRequest": {
                "properties": {
                  "identifier": {
                    "description": "The email (AccountStore has no username login).",
                    "pattern": "^[a-z][a-z0-9]{5,19}@([A-Za-z0-9]([A-Za-z0-9-]*[A-Za-z0-9])?\\.)+[A-Za-z]{2,}$",
                    "type": "string"
                  },
                  "password": {
                    "type": "string"
                  }
                },
                "required": [
                  "identifier",
                  "password"
                ],
                "type": "object"
              },
              "StrapiRegisterRequest": {
                "properties": {
                  "email": {
                    "description": "The ID.",
                    "pattern": "^[a-z][a-z0-9]{5,19}@([A-Za-z0-9]([A-Za-z0-9-]*[A-Za-z0-9])?\\.)+[A-Za-z]{2,}$",
                    "type": "string"
                  },
                  "password": {
                    "description": "The password rules of sign-up.",
                    "maxLength": 128,
                    "minLength": 8,
                    "type": "string"
                  },
                  "username": {
                    "description": "The nickname.",
                    "maxLength": 20,
                    "minLength": 2,
                    "type": "string"
                  }
                },
                "required": [
                  "username",
                  "email",
                  "password"
                ],
                "type": "object"
              },
              "StrapiUser": {
                "properties": {
                  "blocked": {
                    "type": "boolean"
                  },
                  "confirmed": {
                    "type": "boolean"
                  },
                  "createdAt": {
                    "type": "string"
                  },
                  "documentId": {
                    "type": "string"
                  },
                  "email": {
                    "type": "string"
                  },
                  "id": {
                    "description": "AccountStore's id (Strapi's is a number).",
                    "pattern": "^[0-9a-f]{32}$",
                    "type": "string"
                  },
                  "provider": {
                    "const": "local"
                  },
                  "updatedAt": {
                    "type": "string"
                  },
                  "username": {
                    "type": "string"
                  }
                },
                "required": [
                  "id",
                  "documentId",
                  "username",
                  "email",
                  "provider",
                  "confirmed",
                  "blocked",
                  "createdAt",
                  "updatedAt"
                ],
                "type": "object"
              },
              "User": {
                "properties": {
                  "created_at_ms": {
                    "type": "integer"
                  },
                  "email": {
                    "type": "string"
                  },
                  "id": {
                    "pattern": "^[0-9a-f]{32}$",
                    "type": "string"
                  },
                  "nickname": {
                    "type": "string"
                  }
                },
                "required": [
                  "id",
                  "email",
                  "nickname",
                  "created_at_ms"
                ],
                "type": "object"
              },
              "WithdrawRequest": {
                "properties": {
                  "password": {
                    "type": "string"
                  }
                },
                "required": [
                  "password"
                ],
                "type": "object"
              }
            },
            "securitySchemes": {
              "bearer": {
                "description": "The session token of a sign-up or login (64 hex digits).",
                "scheme": "bearer",
                "type": "http"
              }
            }
          },
          "info": {
            "description": "Sign-up, login, sessions, password change and withdrawal over one account store: a native JSON API, Strapi's users-permissions auth routes, and a health check.",
            "title": "AccountStore",
            "version": "1"
          },
          "openapi": "3.1.0",
          "paths": {
            "/api/auth/change-password": {
              "post": {
                "operationId": "strapiChangePassword",
                "parameters": [
                  {
                    "description": "`ko` for Korean messages; English otherwise.",
                    "in": "header",
                    "name": "Accept-Language",
                    "required": false,
                    "schema": {
                      "type": "string"
                    }
                  }
                ],
                "requestBody": {
                  "content": {
                    "application/json": {
                      "schema": {
                        "$ref": "#/components/schemas/StrapiChangePasswordRequest"
                      }
                    }
                  },
                  "required": true
                },
                "responses": {
                  "200": {
                    "content": {
                      "application/json": {
                        "schema": {
                          "$ref": "#/components/schemas/StrapiAuth"
                        }
                      }
                    },
                    "description": "The user and the token used, still valid; every other session is revoked."
                  },
                  "400": {
                    "content": {
                      "application/json": {
                        "schema": {
                          "$ref": "#/components/schemas/StrapiFailure"
                        }
                      }
                    },
                    "description": "Invalid input: a rule broken, or a body that is not the route's JSON object."
                  },
                  "401": {
                    "content": {
                      "application/json": {
                        "schema": {
                          "$ref": "#/components/schemas/StrapiFailure"
                        }
                      }
                    },
                    "description": "Wrong credentials, or no valid session."
                  },
                  "413": {
                    "content": {
                      "application/json": {
                        "schema": {
                          "$ref": "#/components/schemas/StrapiFailure"
                        }
                      }
                    },
                    "description": "The body is larger than server.max_body_bytes."
                  },
                  "415": {
                    "content": {
                      "application/json": {
                        "schema": {
                          "$ref": "#/components/schemas/StrapiFailure"
                        }
                      }
                    },
                    "description": "The body is not application/json."
                  },
                  "429": {
                    "content": {
                      "application/json": {
                        "schema": {
                          "$ref": "#/components/schemas/StrapiFailure"
                        }
                      }
                    },
                    "description": "Too many attempts: the account's throttle or the client's per-minute limit.",
                    "headers": {
                      "Retry-After": {
                        "description": "Seconds to wait before trying again.",
                        "schema": {
                          "minimum": 1,
                          "type": "integer"
                        }
                      }
                    }
                  },
                  "500": {
                    "content": {
                      "application/json": {
                        "schema": {
                          "$ref": "#/components/schemas/StrapiFailure"
                        }
                      }
                    },
                    "description": "The store failed; the cause is in the server's log only."
                  },
                  "503": {
                    "content": {
                      "application/json": {
                        "schema": {
                          "$ref": "#/components/schemas/StrapiFailure"
                        }
                      }
                    },
                    "description": "The store is busy, or every hashing slot is taken and the queue is full.",
                    "headers": {
                      "Retry-After": {
                        "description": "Seconds to wait before trying again.",
                        "schema": {
                          "minimum": 1,
                          "type": "integer"
                        }
                      }
                    }
                  }
                },
                "security": [
                  {
                    "bearer": []
                  }
                ],
                "summary": "Change the password (Strapi)",
                "tags": [
                  "strapi"
                ]
              }
            },
            "/api/auth/local": {
              "post": {
                "operationId": "strapiLogin",
                "parameters": [
                  {
                    "description": "`ko` for Korean messages; English otherwise.",
                    "in": "header",
                    "name": "Accept-Language",
                    "required": false,
                    "schema": {
                      "type": "string"
                    }
                  }
                ],
                "requestBody": {
                  "content": {
                    "application/json": {
                      "schema": {
                        "$ref": "#/components/schemas/StrapiLoginRequest"
                      }
                    }
                  },
                  "required": true
                },
                "responses": {
                  "200": {
                    "content": {
                      "application/json": {
                        "schema": {
                          "$ref": "#/components/schemas/StrapiAuth"
                        }
                      }
                    },
                    "description": "The user and a new token."
                  },
                  "400": {
                    "content": {
                      "application/json": {
                        "schema": {
                          "$ref": "#/components/schemas/StrapiFailure"
                        }
                      }
                    },
                    "description": "Invalid input: a rule broken, or a body that is not the route's JSON object."
                  },
                  "413": {
                    "content": {
                      "application/json": {
                        "schema": {
                          "$ref": "#/components/schemas/StrapiFailure"
                        }
                      }
                    },
                    "description": "The body is larger than server.max_body_bytes."
                  },
                  "415": {
                    "content": {
                      "application/json": {
                        "schema": {
                          "$ref": "#/components/schemas/StrapiFailure"
                        }
                      }
                    },
                    "description": "The body is not application/json."
                  },
                  "429": {
                    "content": {
                      "application/json": {
                        "schema": {
                          "$ref": "#/components/schemas/StrapiFailure"
                        }
                      }
                    },
                    "description": "Too many attempts: the account's throttle or the client's per-minute limit.",
                    "headers": {
                      "Retry-After": {
                        "description": "Seconds to wait before trying again.",
                        "schema": {
                          "minimum": 1,
                          "type": "integer"
                        }
                      }
                    }
                  },
                  "500": {
                    "content": {
                      "application/json": {
                        "schema": {
                          "$ref": "#/components/schemas/StrapiFailure"
                        }
                      }
                    },
                    "description": "The store failed; the cause is in the server's log only."
                  },
                  "503": {
                    "content": {
                      "application/json": {
                        "schema": {
                          "$ref": "#/components/schemas/StrapiFailure"
                        }
                      }
                    },
                    "description": "The store is busy, or every hashing slot is taken and the queue is full.",
                    "headers": {
                      "Retry-After": {
                        "description": "Seconds to wait before trying again.",
                        "schema": {
                          "minimum": 1,
                          "type": "integer"
                        }
                      }
                    }
                  }
                },
                "summary": "Log in (Strapi)",
                "tags": [
                  "strapi"
                ]
              }
            },
            "/api/auth/local/register": {
              "post": {
                "operationId": "strapiRegister",
                "parameters": [
                  {
                    "description": "`ko` for Korean messages; English otherwise.",
                    "in": "header",
                    "name": "Accept-Language",
                    "required": false,
                    "schema": {
                      "type": "string"
                    }
                  }
                ],
                "requestBody": {
                  "content": {
                    "application/json": {
                      "schema": {
                        "$ref": "#/components/schemas/StrapiRegisterRequest"
                      }
                    }
                  },
                  "required": true
                },
                "responses": {
                  "200": {
                    "content": {
                      "application/json": {
                        "schema": {
                          "$ref": "#/components/schemas/StrapiAuth"
                        }
                      }
                    },
                    "description": "The new user and its token."
                  },
                  "400": {
                    "content": {
                      "application/json": {
                        "schema": {
                          "$ref": "#/components/schemas/StrapiFailure"
                        }
                      }
                    },
                    "description": "Invalid input: a rule broken, or a body that is not the route's JSON object."
                  },
                  "413": {
                    "content": {
                      "application/json": {
                        "schema": {
                          "$ref": "#/components/schemas/StrapiFailure"
                        }
                      }
                    },
                    "description": "The body is larger than server.max_body_bytes."
                  },
                  "415": {
                    "content": {
                      "application/json": {
                        "schema": {
                          "$ref": "#/components/schemas/StrapiFailure"
                        }
                      }
                    },
                    "description": "The body is not application/json."
                  },
                  "429": {
                    "content": {
                      "application/json": {
                        "schema": {
                          "$ref": "#/components/schemas/StrapiFailure"
                        }
                      }
                    },
                    "description": "Too many attempts: the account's throttle or the client's per-minute limit.",
                    "headers": {
                      "Retry-After": {
                        "description": "Seconds to wait before trying again.",
                        "schema": {
                          "minimum": 1,
                          "type": "integer"
                        }
                      }
                    }
                  },
                  "500": {
                    "content": {
                      "application/json": {
                        "schema": {
                          "$ref": "#/components/schemas/StrapiFailure"
                        }
                      }
                    },
                    "description": "The store failed; the cause is in the server's log only."
                  },
                  "503": {
                    "content": {
                      "application/json": {
                        "schema": {
                          "$ref": "#/components/schemas/StrapiFailure"
                        }
                      }
                    },
                    "description": "The store is busy, or every hashing slot is taken and the queue is full.",
                    "headers": {
                      "Retry-After": {
                        "description": "Seconds to wait before trying again.",
                        "schema": {
                          "minimum": 1,
                          "type": "integer"
                        }
                      }
                    }
                  }
                },
                "summary": "Register (Strapi)",
                "tags": [
                  "strapi"
                ]
              }
            },
            "/api/users/me": {
              "get": {
                "operationId": "strapiMe",
                "parameters": [
                  {
                    "description": "`ko` for Korean messages; English otherwise.",
                    "in": "header",
                    "name": "Accept-Language",
                    "required": false,
                    "schema": {
                      "type": "string"
                    }
                  }
                ],
                "responses": {
                  "200": {
                    "content": {
                      "application/json": {
                        "schema": {
                          "$ref": "#/components/schemas/StrapiUser"
                        }
                      }
                    },
                    "description": "The user."
                  },
                  "401": {
                    "content": {
                      "application/json": {
                        "schema": {
                          "$ref": "#/components/schemas/StrapiFailure"
                        }
                      }
                    },
                    "description": "Wrong credentials, or no valid session."
                  },
                  "500": {
                    "content": {
                      "application/json": {
                        "schema": {
                          "$ref": "#/components/schemas/StrapiFailure"
                        }
                      }
                    },
                    "description": "The store failed; the cause is in the server's log only."
                  },
                  "503": {
                    "content": {
                      "application/json": {
                        "schema": {
                          "$ref": "#/components/schemas/StrapiFailure"
                        }
                      }
                    },
                    "description": "The store is busy, or every hashing slot is taken and the queue is full.",
                    "headers": {
                      "Retry-After": {
                        "description": "Seconds to wait before trying again.",
                        "schema": {
                          "minimum": 1,
                          "type": "integer"
                        }
                      }
                    }
                  }
                },
                "security": [
                  {
                    "bearer": []
                  }
                ],
                "summary": "The signed-in user (Strapi)",
                "tags": [
                  "strapi"
                ]
              }
            },
            "/healthz": {
              "get": {
                "operationId": "health",
                "parameters": [
                  {
                    "description": "`ko` for Korean messages; English otherwise.",
                    "in": "header",
                    "name": "Accept-Language",
                    "required": false,
                    "schema": {
                      "type": "string"
                    }
                  }
                ],
                "responses": {
                  "200": {
                    "content": {
                      "application/json": {
                        "schema": {
                          "$ref": "#/components/schemas/Health"
                        }
                      }
                    },
                    "description": "The store answered."
                  },
                  "500": {
                    "content": {
                      "application/json": {
                        "schema": {
                          "$ref": "#/components/schemas/Failure"
                        }
                      }
                    },
                    "description": "The store failed; the cause is in the server's log only."
                  },
                  "503": {
                    "content": {
                      "application/json": {
                        "schema": {
                          "$ref": "#/components/schemas/Failure"
                        }
                      }
                    },
                    "description": "The store is busy, or every hashing slot is taken and the queue is full.",
                    "headers": {
                      "Retry-After": {
                        "description": "Seconds to wait before trying again.",
                        "schema": {
                          "minimum": 1,
                          "type": "integer"
                        }
                      }
                    }
                  }
                },
                "summary": "Whether the store answers",
                "tags": [
                  "operations"
                ]
              }
            },
            "/openapi.json": {
              "get": {
                "operationId": "openAPI",
                "responses": {
                  "200": {
                    "content": {
                      "application/json": {
                        "schema": {
                          "type": "object"
                        }
                      }
                    },
                    "description": "The OpenAPI document."
                  }
                },
                "summary": "This document",
                "tags": [
                  "operations"
                ]
              }
            },
            "/v1/login": {
              "post": {
                "description": "An unknown email and a wrong password give the same answer at the same cost.",
                "operationId": "logIn",
                "parameters": [
                  {
                    "description": "`ko` for Korean messages; English otherwise.",
                    "in": "header",
                    "name": "Accept-Language",
                    "required": false,
                    "schema": {
                      "type": "string"
                    }
                  }
                ],
                "requestBody": {
                  "content": {
                    "application/json": {
                      "schema": {
                        "$ref": "#/components/schemas/LoginRequest"
                      }
                    }
                  },
                  "required": true
                },
                "responses": {
                  "200": {
                    "content": {
                      "application/json": {
                        "schema": {
                          "$ref": "#/components/schemas/Session"
                        }
                      }
                    },
                    "description": "A new session."
                  },
                  "400": {
                    "content": {
                      "application/json": {
                        "schema": {
                          "$ref": "#/components/schemas/Failure"
                        }
                      }
                    },
                    "description": "Invalid input: a rule broken, or a body that is not the route's JSON object."
                  },
                  "401": {
                    "content": {
                      "application/json": {
                        "schema": {
                          "$ref": "#/components/schemas/Failure"
                        }
                      }
                    },
                    "description": "Wrong credentials, or no valid session.",
                    "headers": {
                      "WWW-Authenticate": {
                        "description": "Always `Bearer`.",
                        "schema": {
                          "type": "string"
                        }
                      }
                    }
                  },
                  "413": {
                    "content": {
                      "application/json": {
                        "schema": {
                          "$ref": "#/components/schemas/Failure"
                        }
                      }
                    },
                    "description": "The body is larger than server.max_body_bytes."
                  },
                  "415": {
                    "content": {
                      "application/json": {
                        "schema": {
                          "$ref": "#/components/schemas/Failure"
                        }
                      }
                    },
                    "description": "The body is not application/json."
                  },
                  "429": {
                    "content": {
                      "application/json": {
                        "schema": {
                          "$ref": "#/components/schemas/Failure"
                        }
                      }
                    },
                    "description": "Too many attempts: the account's throttle or the client's per-minute limit.",
                    "headers": {
                      "Retry-After": {
                        "description": "Seconds to wait before trying again.",
                        "schema": {
                          "minimum": 1,
                          "type": "integer"
                        }
                      }
                    }
                  },
                  "500": {
                    "content": {
                      "application/json": {
                        "schema": {
                          "$ref": "#/components/schemas/Failure"
                        }
                      }
                    },
                    "description": "The store failed; the cause is in the server's log only."
                  },
                  "503": {
                    "content": {
                      "application/json": {
                        "schema": {
                          "$ref": "#/components/schemas/Failure"
                        }
                      }
                    },
                    "description": "The store is busy, or every hashing slot is taken and the queue is full.",
                    "headers": {
                      "Retry-After": {
                        "description": "Seconds to wait before trying again.",
                        "schema": {
                          "minimum": 1,
                          "type": "integer"
                        }
                      }
                    }
                  }
                },
                "summary": "Log in",
                "tags": [
                  "native"
                ]
              }
            },
            "/v1/logout": {
              "post": {
                "operationId": "logOut",
                "parameters": [
                  {
                    "description": "`ko` for Korean messages; English otherwise.",
                    "in": "header",
                    "name": "Accept-Language",
                    "required": false,
                    "schema": {
                      "type": "string"
                    }
                  }
                ],
                "responses": {
                  "200": {
                    "content": {
                      "application/json": {
                        "schema": {
                          "$ref": "#/components/schemas/Done"
                        }
                      }
                    },
                    "description": "The session is revoked in the store."
                  },
                  "401": {
                    "content": {
                      "application/json": {
                        "schema": {
                          "$ref": "#/components/schemas/Failure"
                        }
                      }
                    },
                    "description": "Wrong credentials, or no valid session.",
                    "headers": {
                      "WWW-Authenticate": {
                        "description": "Always `Bearer`.",
                        "schema": {
                          "type": "string"
                        }
                      }
                    }
                  },
                  "500": {
                    "content": {
                      "application/json": {
                        "schema": {
                          "$ref": "#/components/schemas/Failure"
                        }
                      }
                    },
                    "description": "The store failed; the cause is in the server's log only."
                  },
                  "503": {
                    "content": {
                      "application/json": {
                        "schema": {
                          "$ref": "#/components/schemas/Failure"
                        }
                      }
                    },
                    "description": "The store is busy, or every hashing slot is taken and the queue is full.",
                    "headers": {
                      "Retry-After": {
                        "description": "Seconds to wait before trying again.",
                        "schema": {
                          "minimum": 1,
                          "type": "integer"
                        }
                      }
                    }
                  }
                },
                "security": [
                  {
                    "bearer": []
                  }
                ],
                "summary": "Log out",
                "tags": [
                  "native"
                ]
              }
            },
            "/v1/me": {
              "get": {
                "operationId": "me",
                "parameters": [
                  {
                    "description": "`ko` for Korean messages; English otherwise.",
                    "in": "header",
                    "name": "Accept-Language",
                    "required": false,
                    "schema": {
                      "type": "string"
                    }
                  }
                ],
                "responses": {
                  "200": {
                    "content": {
                      "application/json": {
                        "schema": {
                          "$ref": "#/components/schemas/Me"
                        }
                      }
                    },
                    "description": "The user and the greeting in the request's language."
                  },
                  "401": {
                    "content": {
                      "application/json": {
                        "schema": {
                          "$ref": "#/components/schemas/Failure"
                        }
                      }
                    },
                    "description": "Wrong credentials, or no valid session.",
                    "headers": {
                      "WWW-Authenticate": {
                        "description": "Always `Bearer`.",
                        "schema": {
                          "type": "string"
                        }
                      }
                    }
                  },
                  "500": {
                    "content": {
                      "application/json": {
                        "schema": {
                          "$ref": "#/components/schemas/Failure"
                        }
                      }
                    },
                    "description": "The store failed; the cause is in the server's log only."
                  },
                  "503": {
                    "content": {
                      "application/json": {
                        "schema": {
                          "$ref": "#/components/schemas/Failure"
                        }
                      }
                    },
                    "description": "The store is busy, or every hashing slot is taken and the queue is full.",
                    "headers": {
                      "Retry-After": {
                        "description": "Seconds to wait before trying again.",
                        "schema": {
                          "minimum": 1,
                          "type": "integer"
                        }
                      }
                    }
                  }
                },
                "security": [
                  {
                    "bearer": []
                  }
                ],
                "summary": "The signed-in user (the welcome screen's data)",
                "tags": [
                  "native"
                ]
              }
            },
            "/v1/password": {
              "post": {
                "operationId": "changePassword",
                "parameters": [
                  {
                    "description": "`ko` for Korean messages; English otherwise.",
                    "in": "header",
                    "name": "Accept-Language",
                    "required": false,
                    "schema": {
                      "type": "string"
                    }
                  }
                ],
                "requestBody": {
                  "content": {
                    "application/json": {
                      "schema": {
                        "$ref": "#/components/schemas/ChangePasswordRequest"
                      }
                    }
                  },
                  "required": true
                },
                "responses": {
                  "200": {
                    "content": {
                      "application/json": {
                        "schema": {
                          "$ref": "#/components/schemas/Done"
                        }
                      }
                    },
                    "description": "Changed; every other session of the user is revoked."
                  },
                  "400": {
                    "content": {
                      "application/json": {
                        "schema": {
                          "$ref": "#/components/schemas/Failure"
                        }
                      }
                    },
                    "description": "Invalid input: a rule broken, or a body that is not the route's JSON object."
                  },
                  "401": {
                    "content": {
                      "application/json": {
                        "schema": {
                          "$ref": "#/components/schemas/Failure"
                        }
                      }
                    },
                    "description": "Wrong credentials, or no valid session.",
                    "headers": {
                      "WWW-Authenticate": {
                        "description": "Always `Bearer`.",
                        "schema": {
                          "type": "string"
                        }
                      }
                    }
                  },
                  "413": {
                    "content": {
                      "application/json": {
                        "schema": {
                          "$ref": "#/components/schemas/Failure"
                        }
                      }
                    },
                    "description": "The body is larger than server.max_body_bytes."
                  },
                  "415": {
                    "content": {
                      "application/json": {
                        "schema": {
                          "$ref": "#/components/schemas/Failure"
                        }
                      }
                    },
                    "description": "The body is not application/json."
                  },
                  "429": {
                    "content": {
                      "application/json": {
                        "schema": {
                          "$ref": "#/components/schemas/Failure"
                        }
                      }
                    },
                    "description": "Too many attempts: the account's throttle or the client's per-minute limit.",
                    "headers": {
                      "Retry-After": {
                        "description": "Seconds to wait before trying again.",
                        "schema": {
                          "minimum": 1,
                          "type": "integer"
                        }
                      }
                    }
                  },
                  "500": {
                    "content": {
                      "application/json": {
                        "schema": {
                          "$ref": "#/components/schemas/Failure"
                        }
                      }
                    },
                    "description": "The store failed; the cause is in the server's log only."
                  },
                  "503": {
                    "content": {
                      "application/json": {
                        "schema": {
                          "$ref": "#/components/schemas/Failure"
                        }
                      }
                    },
                    "description": "The store is busy, or every hashing slot is taken and the queue is full.",
                    "headers": {
                      "Retry-After": {
                        "description": "Seconds to wait before trying again.",
                        "schema": {
                          "minimum": 1,
                          "type": "integer"
                        }
                      }
                    }
                  }
                },
                "security": [
                  {
                    "bearer": []
                  }
                ],
                "summary": "Change the password",
                "tags": [
                  "native"
                ]
              }
            },
            "/v1/signup": {
              "post": {
                "description": "Checks every rule (the ID rule, password length and strength, confirmation, nickname), then creates the user with its first session in one store call.",
                "operationId": "signUp",
                "parameters": [
                  {
                    "description": "`ko` for Korean messages; English otherwise.",
                    "in": "header",
                    "name": "Accept-Language",
                    "required": false,
                    "schema": {
                      "type": "string"
                    }
                  }
                ],
                "requestBody": {
                  "content": {
                    "application/json": {
                      "schema": {
                        "$ref": "#/components/schemas/SignUpRequest"
                      }
                    }
                  },
                  "required": true
                },
                "responses": {
                  "201": {
                    "content": {
                      "application/json": {
                        "schema": {
                          "$ref": "#/components/schemas/Session"
                        }
                      }
                    },
                    "description": "The account and its first session."
                  },
                  "400": {
                    "content": {
                      "application/json": {
                        "schema": {
                          "$ref": "#/components/schemas/Failure"
                        }
                      }
                    },
                    "description": "Invalid input: a rule broken, or a body that is not the route's JSON object."
                  },
                  "409": {
                    "content": {
                      "application/json": {
                        "schema": {
                          "$ref": "#/components/schemas/Failure"
                        }
                      }
                    },
                    "description": "The email is already registered."
                  },
                  "413": {
                    "content": {
                      "application/json": {
                        "schema": {
                          "$ref": "#/components/schemas/Failure"
                        }
                      }
                    },
                    "description": "The body is larger than server.max_body_bytes."
                  },
                  "415": {
                    "content": {
                      "application/json": {
                        "schema": {
                          "$ref": "#/components/schemas/Failure"
                        }
                      }
                    },
                    "description": "The body is not application/json."
                  },
                  "429": {
                    "content": {
                      "application/json": {
                        "schema": {
                          "$ref": "#/components/schemas/Failure"
                        }
                      }
                    },
                    "description": "Too many attempts: the account's throttle or the client's per-minute limit.",
                    "headers": {
                      "Retry-After": {
                        "description": "Seconds to wait before trying again.",
                        "schema": {
                          "minimum": 1,
                          "type": "integer"
                        }
                      }
                    }
                  },
                  "500": {
                    "content": {
                      "application/json": {
                        "schema": {
                          "$ref": "#/components/schemas/Failure"
                        }
                      }
                    },
                    "description": "The store failed; the cause is in the server's log only."
                  },
                  "503": {
                    "content": {
                      "application/json": {
                        "schema": {
                          "$ref": "#/components/schemas/Failure"
                        }
                      }
                    },
                    "description": "The store is busy, or every hashing slot is taken and the queue is full.",
                    "headers": {
                      "Retry-After": {
                        "description": "Seconds to wait before trying again.",
                        "schema": {
                          "minimum": 1,
                          "type": "integer"
                        }
                      }
                    }
                  }
                },
                "summary": "Sign up and sign in",
                "tags": [
                  "native"
                ]
              }
            },
            "/v1/withdraw": {
              "post": {
                "operationId": "withdraw",
                "parameters": [
                  {
                    "description": "`ko` for Korean messages; English otherwise.",
                    "in": "header",
                    "name": "Accept-Language",
                    "required": false,
                    "schema": {
                      "type": "string"
                    }
                  }
                ],
                "requestBody": {
                  "content": {
                    "application/json": {
                      "schema": {
                        "$ref": "#/components/schemas/WithdrawRequest"
                      }
                    }
                  },
                  "required": true
                },
                "responses": {
                  "200": {
                    "content": {
                      "application/json": {
                        "schema": {
                          "$ref": "#/components/schemas/Done"
                        }
                      }
                    },
                    "description": "The user and every one of its sessions are deleted."
                  },
                  "400": {
                    "content": {
                      "application/json": {
                        "schema": {
                          "$ref": "#/components/schemas/Failure"
                        }
                      }
                    },
                    "description": "Invalid input: a rule broken, or a body that is not the route's JSON object."
                  },
                  "401": {
                    "content": {
                      "application/json": {
                        "schema": {
                          "$ref": "#/components/schemas/Failure"
                        }
                      }
                    },
                    "description": "Wrong credentials, or no valid session.",
                    "headers": {
                      "WWW-Authenticate": {
                        "description": "Always `Bearer`.",
                        "schema": {
                          "type": "string"
                        }
                      }
                    }
                  },
                  "413": {
                    "content": {
                      "application/json": {
                        "schema": {
                          "$ref": "#/components/schemas/Failure"
                        }
                      }
                    },
                    "description": "The body is larger than server.max_body_bytes."
                  },
                  "415": {
                    "content": {
                      "application/json": {
                        "schema": {
                          "$ref": "#/components/schemas/Failure"
                        }
                      }
                    },
                    "description": "The body is not application/json."
                  },
                  "429": {
                    "content": {
                      "application/json": {
                        "schema": {
                          "$ref": "#/components/schemas/Failure"
                        }
                      }
                    },
                    "description": "Too many attempts: the account's throttle or the client's per-minute limit.",
                    "headers": {
                      "Retry-After": {
                        "description": "Seconds to wait before trying again.",
                        "schema": {
                          "minimum": 1,
                          "type": "integer"
                        }
                      }
                    }
                  },
                  "500": {
                    "content": {
                      "application/json": {
                        "schema": {
                          "$ref": "#/components/schemas/Failure"
                        }
                      }
                    },
                    "description": "The store failed; the cause is in the server's log only."
                  },
                  "503": {
                    "content": {
                      "application/json": {
                        "schema": {
                          "$ref": "#/components/schemas/Failure"
                        }
                      }
                    },
                    "description": "The store is busy, or every hashing slot is taken and the queue is full.",
                    "headers": {
                      "Retry-After": {
                        "description": "Seconds to wait before trying again.",
                        "schema": {
                          "minimum": 1,
                          "type": "integer"
                        }
                      }
                    }
                  }
                },
                "security": [
                  {
                    "bearer": []
                  }
                ],
                "summary": "Withdraw",
                "tags": [
                  "native"
                ]
              }
            }
          },
          "tags": [
            {
              "name": "native"
            },
            {
              "name": "strapi"
            },
            {
              "name": "operations"
            }
          ]
        }
        """#
}
