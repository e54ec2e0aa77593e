// The renderer's only view of the core: types, erased at build (ARCHITECTURE.md, Layers: "the renderer
// imports only the router's type"). This is the single place the layering rule is waived, for types.
/* eslint-disable no-restricted-imports */
export type { AppRouter } from '../../../src-main/core/api/router';
export type { UiEvent } from '../../../src-main/core/api/eventStream';
export type { ServerRow } from '../../../src-main/core/api/serversRouter';
export type { WirePart, WireTool, WireToolCallEvent, WireToolResult } from '../../../src-main/core/api/wire';
export type { IpcRequest, IpcResponse, MooringBridge } from '../../../src-main/core/api/ipcProtocol';
export type { MetricsSample, StateTransition } from '../../../src-main/core/api/statusHistory';
export type { SlashCommandView } from '../../../src-main/core/api/chatRouter';
export type { TurnState } from '../../../src-main/core/agent/chatService';
export type { ProviderView } from '../../../src-main/core/api/settingsRouter';
