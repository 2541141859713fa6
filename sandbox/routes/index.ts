import type { RouteDeclaration } from '../core/route';
import { usersTrack } from './usersTrack';

/** Every API endpoint the sandbox serves. A new endpoint is one file in this folder and one line here. */
export const API_ROUTES: readonly RouteDeclaration[] = [usersTrack];
